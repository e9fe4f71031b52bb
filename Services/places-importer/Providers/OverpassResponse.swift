/// An Overpass API answer with `[out:json]` and `out center tags`: nodes carry `lat`/`lon`, ways and
/// relations a `center`. A query that ran out of time or memory still answers 200, with a `remark`.
struct OverpassResponse: Decodable {
    var elements: [Element]
    var remark: String?

    struct Element: Decodable {
        var type: String
        var id: Int64
        var lat: Double?
        var lon: Double?
        var center: Center?
        var tags: [String: String]?
    }

    struct Center: Decodable {
        var lat: Double
        var lon: Double
    }
}
