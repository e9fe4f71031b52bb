import Foundation
import NIOCore
import NIOHTTP1
import PlatformEvents
import PlatformHTTP

/// OpenStreetMap's Overpass API (https://wiki.openstreetmap.org/wiki/Overpass_API), the default provider
/// (P1): an Overpass QL query for coworking spaces, cafes, libraries and bars in a tile, POSTed to
/// `/api/interpreter`. Its usage policy asks for one request at a time and backing off on 429 and 504; the
/// HTTP client enforces both (see `PlacesConfiguration`).
struct OverpassProvider: PlacesProvider {
    let http: ProviderHTTPClient
    /// e.g. `https://overpass-api.de`
    let baseURL: String
    let tileDegrees: Double
    var name: String { "osm" }

    static func query(for tile: GeoBox, placesOfWorship: Bool = false) -> String {
        let box = String(format: "%.6f,%.6f,%.6f,%.6f", tile.south, tile.west, tile.north, tile.east)
        let worship = placesOfWorship ? "\n  nwr[\"amenity\"=\"place_of_worship\"][\"name\"](\(box));" : ""
        return """
            [out:json][timeout:60];
            (
              nwr["amenity"~"^(cafe|library|bar|pub|coworking_space)$"]["name"](\(box));
              nwr["office"="coworking"]["name"](\(box));\(worship)
            );
            out center tags;
            """
    }

    func places(in tile: GeoBox, placesOfWorship: Bool) async throws -> [PlaceCandidate] {
        let form =
            "data=" + (Self.query(for: tile, placesOfWorship: placesOfWorship).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let body = try await http.send(
            .POST, ProviderURL.make(base: baseURL, path: "/api/interpreter", query: []),
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
        return try decode(body)
    }

    func decode(_ body: ByteBuffer) throws(ProviderError) -> [PlaceCandidate] {
        let answer: OverpassResponse
        do {
            answer = try JSONDecoder().decode(OverpassResponse.self, from: Data(buffer: body))
        } catch {
            throw .malformedResponse("not an Overpass JSON answer: \(error)")
        }
        // A remark means the server gave up part-way: the elements are incomplete, so none are used.
        if let remark = answer.remark { throw .rejected(remark) }
        return answer.elements.compactMap(Self.candidate)
    }

    static func candidate(_ element: OverpassResponse.Element) -> PlaceCandidate? {
        guard let tags = element.tags, let name = tags["name"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
            let latitude = element.lat ?? element.center?.lat, let longitude = element.lon ?? element.center?.lon
        else { return nil }
        return PlaceCandidate(
            provider: "osm", providerId: "\(element.type)/\(element.id)", name: name, category: category(tags),
            latitude: latitude, longitude: longitude, address: address(tags), openingHours: tags["opening_hours"],
            phone: tags["phone"] ?? tags["contact:phone"], website: tags["website"] ?? tags["contact:website"],
            internetAccess: tags["internet_access"]
        ).storable()
    }

    static func category(_ tags: [String: String]) -> PlaceCategory {
        if tags["office"] == "coworking" { return .coworking }
        switch tags["amenity"] {
        case "coworking_space": return .coworking
        case "cafe": return .cafe
        case "library": return .library
        case "bar", "pub": return .bar
        case "place_of_worship": return .worship
        default: return .other
        }
    }

    /// `Street 12, 10115 City` from the `addr:*` tags, or nil.
    static func address(_ tags: [String: String]) -> String? {
        let street = [tags["addr:street"], tags["addr:housenumber"]].compactMap { $0 }.joined(separator: " ")
        let city = [tags["addr:postcode"], tags["addr:city"]].compactMap { $0 }.joined(separator: " ")
        let parts = [street, city].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
