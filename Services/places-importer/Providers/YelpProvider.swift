import Foundation
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Yelp Fusion's business search (https://docs.developer.yelp.com/reference/v3_business_search), the
/// second provider (P1): a bearer key from configuration, a circle per tile (radius at most 40 km), 50
/// results per page by offset, and at most `resultCap` results per search (Yelp's documented limit on
/// `offset + limit`).
struct YelpProvider: PlacesProvider {
    let http: ProviderHTTPClient
    let baseURL: String
    let apiKey: Secret
    let tileDegrees: Double
    let resultCap: Int
    var name: String { "yelp" }

    static let pageSize = 50
    static let maxRadiusMetres = 40_000.0
    static let categories = "coffee,cafes,coworkingspace,sharedofficespaces,libraries,bars,pubs"

    func url(for tile: GeoBox, offset: Int) -> String {
        ProviderURL.make(
            base: baseURL, path: "/v3/businesses/search",
            query: [
                URLQueryItem(name: "latitude", value: String(format: "%.6f", tile.centre.latitude)),
                URLQueryItem(name: "longitude", value: String(format: "%.6f", tile.centre.longitude)),
                URLQueryItem(name: "radius", value: String(min(Self.maxRadiusMetres, tile.coveringRadiusMetres.rounded(.up)).roundedClampedInt)),
                URLQueryItem(name: "categories", value: Self.categories),
                URLQueryItem(name: "limit", value: String(Self.pageSize)),
                URLQueryItem(name: "offset", value: String(offset)),
            ])
    }

    /// Yelp is asked for workplaces only: places of worship come from OpenStreetMap.
    func places(in tile: GeoBox, placesOfWorship: Bool) async throws -> [PlaceCandidate] {
        try await self.tile(tile, placesOfWorship: placesOfWorship).candidates
    }

    /// Complete unless Yelp knows more businesses in the circle than its result cap lets a search page through.
    func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile {
        var candidates: [PlaceCandidate] = []
        var offset = 0
        var complete = true
        while true {
            let body = try await http.get(url(for: tile, offset: offset), headers: [("Authorization", "Bearer \(apiKey.value)")])
            let page = try decode(body)
            // The circle covers the tile's corners, so results outside the tile belong to a neighbour.
            candidates += page.candidates.filter {
                $0.latitude >= tile.south && $0.latitude <= tile.north && $0.longitude >= tile.west && $0.longitude <= tile.east
            }
            offset += Self.pageSize
            // Past the cap, or a tile larger than Yelp's largest circle, Yelp has not listed everything.
            complete = page.total <= resultCap && tile.coveringRadiusMetres <= Self.maxRadiusMetres
            if page.count < Self.pageSize || offset >= min(page.total, resultCap) { break }
        }
        return ProviderTile(candidates: candidates, complete: complete)
    }

    func decode(_ body: ByteBuffer) throws(ProviderError) -> (candidates: [PlaceCandidate], count: Int, total: Int) {
        let data = Data(buffer: body)
        let answer: YelpSearchResponse
        do {
            answer = try JSONDecoder().decode(YelpSearchResponse.self, from: data)
        } catch {
            if let failure = try? JSONDecoder().decode(YelpErrorResponse.self, from: data) {
                throw .rejected("\(failure.error.code): \(failure.error.description ?? "")")
            }
            throw .malformedResponse("not a Yelp business search answer: \(error)")
        }
        let candidates = answer.businesses.compactMap { business -> PlaceCandidate? in
            guard business.is_closed != true, let latitude = business.coordinates.latitude,
                let longitude = business.coordinates.longitude
            else { return nil }
            let address = business.location?.display_address?.joined(separator: ", ")
            return PlaceCandidate(
                provider: "yelp", providerId: business.id, name: business.name, category: Self.category(business.categories ?? []),
                latitude: latitude, longitude: longitude, address: address?.isEmpty == true ? nil : address, openingHours: nil,
                // Yelp's `url` is its own page about the business; the business's site is `attributes.business_url`
                // when Yelp has one.
                phone: business.phone?.isEmpty == true ? nil : business.phone, website: Self.website(business.attributes?.business_url),
                internetAccess: nil
            ).storable()
        }
        return (candidates, answer.businesses.count, answer.total)
    }

    /// The business's own site: an http(s) URL that is not a page of Yelp's.
    static func website(_ text: String?) -> String? {
        guard let text, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let host = url.host?.lowercased(), !Self.isYelpHost(host)
        else { return nil }
        return text
    }

    /// yelp.com, yelp.de, yelp.co.uk and their subdomains.
    static func isYelpHost(_ host: String) -> Bool {
        let labels = host.split(separator: ".")
        return labels.contains("yelp") && labels.firstIndex(of: "yelp").map { labels.count - $0 <= 3 } == true
    }

    static func category(_ categories: [YelpSearchResponse.Category]) -> PlaceCategory {
        let aliases = Set(categories.map(\.alias))
        if !aliases.isDisjoint(with: ["coworkingspace", "sharedofficespaces"]) { return .coworking }
        if aliases.contains("libraries") { return .library }
        if !aliases.isDisjoint(with: ["coffee", "cafes", "coffeeroasteries"]) { return .cafe }
        if !aliases.isDisjoint(with: ["bars", "pubs", "cocktailbars", "wine_bars"]) { return .bar }
        return .other
    }
}
