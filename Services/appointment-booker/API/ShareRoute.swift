import Foundation
import Hummingbird
import NIOCore
import PlatformHTTP

/// The public pages share links open (B4), registered by hand: HTML for people and for the link previews of
/// chat and social apps (Open Graph, Twitter cards), so not in the JSON API document. A stored reading's page
/// is shown for `SHARE_LINK_DAYS`, then 410; the daily horoscope's is the same for everyone, for any day.
struct ShareRoute {
    let readings: ReadingService
    /// The preview image every page names.
    let card: ByteBuffer

    static func bundledCard() throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: try ReadingContent.bundledDirectory().appendingPathComponent("share-card.png")))
    }

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("share/readings/:shareId", use: storedReading)
        group.get("share/horoscope/:sign", use: dailyHoroscope)
        group.get("share/card.png") { _, _ in SharePageHTML.image(card) }
    }

    @Sendable func storedReading(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let shareId = context.parameters.get("shareId") ?? ""
        guard ShareId.isValid(shareId), let stored = try await readings.store.shared(shareId)
        else { return Self.page(.notFound, SharePageHTML.gone("This shared reading is not here.")) }
        guard !readings.sharing.hasExpired(stored) else { return Self.page(.gone, SharePageHTML.gone("This shared reading has expired.")) }
        let language = Self.language(request)
        return Self.page(
            .ok,
            SharePage.html(
                stored.reading, language: language, pageURL: readings.sharing.url(shareId: shareId), imageURL: readings.sharing.imageURL))
    }

    @Sendable func dailyHoroscope(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        guard let sign = readings.content.sign(context.parameters.get("sign") ?? ""),
            let day = try? ReadingRequest.day(tz: nil, date: request.uri.queryParameters["date"].map(String.init))
        else { return Self.page(.notFound, SharePageHTML.gone("There is no such horoscope.")) }
        let reading = readings.engine.horoscope(sign: sign, on: day)
        return Self.page(
            .ok,
            SharePage.html(
                reading, language: Self.language(request), pageURL: readings.sharing.url(sign: sign.id, day: "\(day)"),
                imageURL: readings.sharing.imageURL))
    }

    /// Thai with `?lang=th` (a link shared from the Thai app) or when the browser asks for it first.
    static func language(_ request: Request) -> Language {
        if let asked = request.uri.queryParameters["lang"].flatMap({ Language(rawValue: String($0)) }) { return asked }
        return Language(acceptLanguage: request.headers[.acceptLanguage])
    }

    static func page(_ status: HTTPResponse.Status, _ html: String) -> Response { SharePageHTML.response(status, html) }
}
