import Foundation
import NIOCore
import PlatformCore
import PlatformHTTP

/// OSM Nominatim's search API (https://nominatim.org/release-docs/latest/api/Search/) for adding a place
/// by address (P4): the first match's coordinates, and name, opening hours, phone and website where the
/// extra tags know them.
struct NominatimClient: Sendable {
    let http: ProviderHTTPClient
    let baseURL: String

    struct Match: Equatable, Sendable {
        var latitude: Double
        var longitude: Double
        var name: String?
        var displayName: String
        var openingHours: String?
        var phone: String?
        var website: String?
    }

    private struct Answer: Decodable {
        var lat: String
        var lon: String
        var name: String?
        var display_name: String
        var extratags: [String: String]?
    }

    func url(for address: String) -> String {
        ProviderURL.make(
            base: baseURL, path: "/search",
            query: [
                URLQueryItem(name: "q", value: address), URLQueryItem(name: "format", value: "jsonv2"),
                URLQueryItem(name: "limit", value: "1"), URLQueryItem(name: "extratags", value: "1"),
                URLQueryItem(name: "addressdetails", value: "1"),
            ])
    }

    /// The best match, or nil when Nominatim knows no such address.
    func lookup(_ address: String) async throws -> Match? {
        try decode(try await http.get(url(for: address)))
    }

    func reverseURL(latitude: Double, longitude: Double) -> String {
        ProviderURL.make(
            base: baseURL, path: "/reverse",
            query: [
                URLQueryItem(name: "lat", value: String(format: "%.6f", latitude)),
                URLQueryItem(name: "lon", value: String(format: "%.6f", longitude)),
                URLQueryItem(name: "format", value: "jsonv2"), URLQueryItem(name: "extratags", value: "1"),
                URLQueryItem(name: "addressdetails", value: "1"),
            ])
    }

    /// What is at the coordinates (Nominatim's reverse geocoding), or nil when it knows nothing there.
    func reverse(latitude: Double, longitude: Double) async throws -> Match? {
        try decodeReverse(try await http.get(reverseURL(latitude: latitude, longitude: longitude)))
    }

    /// Reverse answers are one object, or `{"error": "Unable to geocode"}`.
    func decodeReverse(_ body: ByteBuffer) throws(ProviderError) -> Match? {
        if let failure = try? JSONDecoder().decode([String: String].self, from: Data(buffer: body)), failure["error"] != nil { return nil }
        var array = ByteBuffer(string: "[")
        var copy = body
        array.writeBuffer(&copy)
        array.writeString("]")
        return try decode(array)
    }

    func decode(_ body: ByteBuffer) throws(ProviderError) -> Match? {
        let answers: [Answer]
        do {
            answers = try JSONDecoder().decode([Answer].self, from: Data(buffer: body))
        } catch {
            throw .malformedResponse("not a Nominatim jsonv2 answer: \(error)")
        }
        guard let first = answers.first else { return nil }
        guard let latitude = Double(first.lat), let longitude = Double(first.lon) else {
            throw .malformedResponse("coordinates are not numbers: \(first.lat), \(first.lon)")
        }
        let tags = first.extratags ?? [:]
        // OpenStreetMap's tags as mappers wrote them, made to fit what saving a place accepts (P4), so a lookup
        // the user does not edit can be saved as it is.
        let text = { (value: String?, limit: Int) -> String? in
            value.map { $0.storableText(maxLength: limit) }.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        return Match(
            latitude: latitude, longitude: longitude, name: text(first.name, 200),
            displayName: first.display_name, openingHours: text(tags["opening_hours"], 500),
            phone: text(tags["phone"] ?? tags["contact:phone"], 100),
            website: Self.website(text(tags["website"] ?? tags["contact:website"], 1_990)))
    }

    /// An http(s) URL: mappers often leave the scheme out (`www.cafe.example`); anything else is dropped.
    static func website(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return text }
        guard !text.contains("://"), !text.contains(" "), text.contains(".") else { return nil }
        return "https://" + text
    }
}
