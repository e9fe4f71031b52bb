import Foundation
import TestSupport

/// OpenStreetMap's providers as strict as the journeys need them: Overpass answers only a POSTed `data=` query and
/// only the elements inside its bounding box (so an import of the wrong tile finds nothing), Nominatim refuses a
/// request without a User-Agent (its usage policy) and answers only the address it knows.
enum ProviderFakes {
    /// Bangkok's temple, the one place of worship the fake Overpass knows (B4).
    static let temple =
        #"{"type":"node","id":7001,"lat":13.7563,"lon":100.5018,"tags":{"amenity":"place_of_worship","religion":"buddhist","name":"Wat Journey"}}"#

    /// The places providers of every journey on one server (a running stack has one address for each): Overpass
    /// answers the temple to a query for places of worship and the fixtures' workplaces to any other, each inside the
    /// asked box; Yelp knows nothing; Nominatim knows the Betahaus address.
    static let places: FakeHTTPServer.Handler = { request in
        switch request.path {
        case "/api/interpreter":
            let worship = (request.body.removingPercentEncoding ?? request.body).contains("place_of_worship")
            return overpass(request, elements: worship ? [temple] : PlacesFixtures.defaultElements)
        case "/v3/businesses/search": return .init(body: PlacesFixtures.yelp(businesses: [], total: 0))
        case "/search": return nominatim(request, knows: "Rudi-Dutschke", answer: PlacesFixtures.nominatimFound)
        default: return .init(status: 404, body: "{}")
        }
    }

    /// The settings pointing places-importer at `server`.
    static func placesSettings(_ server: FakeHTTPServer) -> [String: String] {
        ["PLACES_OVERPASS_BASE_URL": server.baseURL, "PLACES_YELP_BASE_URL": server.baseURL, "PLACES_NOMINATIM_BASE_URL": server.baseURL]
    }

    static func overpass(_ request: FakeHTTPServer.Received, elements: [String]) -> FakeHTTPServer.Reply {
        guard request.method == "POST", request.body.hasPrefix("data="),
            let query = String(request.body.dropFirst("data=".count)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        else { return .init(status: 400, body: #"{"remark":"runtime error: no query"}"#) }
        guard let box = boundingBox(in: query) else { return .init(status: 400, body: #"{"remark":"runtime error: no bounding box"}"#) }
        let inside = elements.filter { element in
            guard let (lat, lon) = coordinates(of: element) else { return false }
            return (box.south...box.north).contains(lat) && (box.west...box.east).contains(lon)
        }
        return .init(body: PlacesFixtures.overpass(elements: inside))
    }

    static func nominatim(_ request: FakeHTTPServer.Received, knows address: String, answer: String) -> FakeHTTPServer.Reply {
        guard request.headers["user-agent"]?.isEmpty == false else { return .init(status: 403, body: "Access blocked") }
        return .init(body: request.query["q"]?.contains(address) == true ? answer : "[]")
    }

    /// The first `(south,west,north,east)` of an Overpass QL query.
    private static func boundingBox(in query: String) -> (south: Double, west: Double, north: Double, east: Double)? {
        let number = #"(-?[0-9]+(?:\.[0-9]+)?)"#
        guard let match = query.firstMatch(of: try! Regex("\\(\(number),\(number),\(number),\(number)\\)")),
            match.output.count == 5
        else { return nil }
        let values = (1...4).compactMap { match.output[$0].substring.flatMap { Double($0) } }
        guard values.count == 4 else { return nil }
        return (values[0], values[1], values[2], values[3])
    }

    /// A node's coordinates, or a way's centre.
    private static func coordinates(of element: String) -> (Double, Double)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any] else { return nil }
        let place = (object["center"] as? [String: Any]) ?? object
        guard let lat = place["lat"] as? Double, let lon = place["lon"] as? Double else { return nil }
        return (lat, lon)
    }
}
