import Foundation
import TestSupport

/// The places providers of the stack bench on one loopback server: Overpass answers any box with cafés on a fixed
/// grid (the same place at the same point whatever tile asked), Yelp and Nominatim know nothing.
enum StackProviderFakes {
    /// Grid spacing in degrees: about 280 m north-south in Berlin, some 60 places within 1 km.
    static let spacing = 0.0025

    static let overpass: FakeHTTPServer.Handler = { request in
        switch request.path {
        case "/api/interpreter":
            let query = String(request.body.dropFirst("data=".count)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            guard let box = boundingBox(in: query) else { return .init(status: 400, body: #"{"remark":"runtime error: no bounding box"}"#) }
            return .init(body: #"{"version":0.6,"generator":"bench","elements":[\#(cafes(in: box).joined(separator: ","))]}"#)
        case "/v3/businesses/search": return .init(body: #"{"businesses":[],"total":0}"#)
        case "/search": return .init(body: "[]")
        default: return .init(status: 404, body: "{}")
        }
    }

    /// The grid's cafés inside the box (at most 10,000), each with an id from its grid position.
    static func cafes(in box: (south: Double, west: Double, north: Double, east: Double)) -> [String] {
        let (firstRow, lastRow) = (Int((box.south + 90) / spacing) + 1, Int((box.north + 90) / spacing))
        let (firstColumn, lastColumn) = (Int((box.west + 180) / spacing) + 1, Int((box.east + 180) / spacing))
        guard firstRow <= lastRow, firstColumn <= lastColumn, (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) <= 10_000 else {
            return []
        }
        let (rows, columns) = (firstRow...lastRow, firstColumn...lastColumn)
        return rows.flatMap { row in
            columns.map { column in
                let (lat, lon) = (Double(row) * spacing - 90, Double(column) * spacing - 180)
                let tags = #"{"amenity":"cafe","name":"Cafe \#(row)-\#(column)"}"#
                return #"{"type":"node","id":\#(row * 1_000_000 + column),"lat":\#(lat),"lon":\#(lon),"tags":\#(tags)}"#
            }
        }
    }

    /// The first `(south,west,north,east)` of an Overpass QL query.
    static func boundingBox(in query: String) -> (south: Double, west: Double, north: Double, east: Double)? {
        let number = #"(-?[0-9]+(?:\.[0-9]+)?)"#
        guard let pattern = try? Regex("\\(\(number),\(number),\(number),\(number)\\)"), let match = query.firstMatch(of: pattern) else {
            return nil
        }
        let values = (1...4).compactMap { match.output[$0].substring.flatMap { Double($0) } }
        guard values.count == 4 else { return nil }
        return (values[0], values[1], values[2], values[3])
    }
}
