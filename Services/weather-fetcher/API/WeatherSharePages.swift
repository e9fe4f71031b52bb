import Foundation
import Hummingbird
import NIOCore
import PlatformHTTP

/// The public pages the weather app's share links open (W10), registered by hand: HTML for people and for the link
/// previews of chat and social apps (Open Graph, Twitter cards), so not in the JSON API document. A page shows the
/// text as it was shared (weather is public: nothing to mask) for `SHARE_LINK_DAYS`, then 410.
struct WeatherSharePages: Sendable {
    let baseURL: String
    let appName: String
    let sharedTexts: SharedTextStore
    let cities: CityStore
    /// The preview image every page names.
    let card: ByteBuffer

    static func bundledCard() throws -> ByteBuffer {
        guard let url = Bundle.module.url(forResource: "share-card", withExtension: "png", subdirectory: "Share") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "Share/share-card.png is not in the bundle"])
        }
        return ByteBuffer(bytes: try Data(contentsOf: url))
    }

    func url(id: String) -> String { "\(baseURL)/share/weather/\(id)" }
    var imageURL: String { "\(baseURL)/share/card.png" }

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("share/weather/:shareId", use: page)
        group.get("share/card.png") { [card] _, _ in SharePageHTML.image(card) }
    }

    @Sendable func page(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let id = context.parameters.get("shareId") ?? ""
        guard ShareId.isValid(id), let shared = try await sharedTexts.shared(id) else {
            return SharePageHTML.response(.notFound, SharePageHTML.gone("This shared weather is not here."))
        }
        guard !sharedTexts.hasExpired(shared) else {
            return SharePageHTML.response(.gone, SharePageHTML.gone("This shared weather has expired."))
        }
        let cityName = try await cities.find(id: shared.cityId)?.name
        let title = cityName.map { "\(appName): \($0)" } ?? appName
        let preview = SharePageHTML.Preview(
            siteName: appName, title: title, description: shared.text, pageURL: url(id: id), imageURL: imageURL, language: "en")
        let when = shared.sharedAt.formatted(Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: false))
        return SharePageHTML.response(.ok, SharePageHTML.page(preview, paragraphs: [shared.text, "Shared \(when) UTC"]))
    }
}
