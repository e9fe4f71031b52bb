import Foundation
import NIOCore

/// Writes nearby answers by hand: a place's JSON is made once when it enters the grid, and an answer is
/// those pieces with each asker's pin appended. The shape is `PlaceDTO`'s and `PlacePageDTO`'s; a test
/// decodes the output with them.
enum PlaceJSON {
    /// `{"id":…,…,"userAdded":…` without the closing brace.
    static func openObject(_ place: Place) -> String {
        var json = "{\"id\":\"\(place.id.uuidString)\",\"name\":\(quoted(place.name)),\"category\":\"\(place.category.rawValue)\""
        json += ",\"latitude\":\(place.latitude),\"longitude\":\(place.longitude)"
        for (key, value) in [
            ("address", place.address), ("openingHours", place.openingHours), ("phone", place.phone), ("website", place.website),
            ("internetAccess", place.internetAccess),
        ] {
            if let value { json += ",\"\(key)\":\(quoted(value))" }
        }
        json += ",\"userAdded\":\(place.addedBy != nil)"
        return json
    }

    /// A `PlacePageDTO` body from grid entries and their pins.
    static func page(_ found: [PlaceGrid.Found], pins: [String], page: Int, pageSize: Int, hasMore: Bool) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(64 + found.reduce(0) { $0 + $1.entry.json.utf8.count + 48 })
        buffer.writeString("{\"places\":[")
        for (index, (item, pin)) in zip(found, pins).enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeString(item.entry.json)
            buffer.writeString(",\"pin\":\"\(pin)\"")
            if let distance = item.distanceMetres {
                buffer.writeString(",\"distanceMetres\":\((distance * 10).rounded() / 10)")
            }
            buffer.writeString("}")
        }
        buffer.writeString("],\"page\":\(page),\"pageSize\":\(pageSize),\"hasMore\":\(hasMore)}")
        return buffer
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
