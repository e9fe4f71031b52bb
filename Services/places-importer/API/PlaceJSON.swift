import Foundation
import NIOCore
import PlacesImporterCore
import PlatformCore
import PlatformEvents

/// Writes nearby answers by hand: a place's JSON is made once when it enters the grid, and an answer is
/// those pieces with each asker's pin appended. The shape is the document's `Place` and `PlacePage`; tests
/// decode the output with the generated `Components.Schemas.Place`, and the fuzzer checks it too.
enum PlaceJSON {
    /// `{"id":…,…,"userAdded":…` without the closing brace.
    static func openObject(_ place: Place) -> String {
        var json = "{\"id\":\"\(place.id.uuidString.lowercased())\",\"name\":\(JSONString.quoted(place.name))"
        json += ",\"category\":\"\(place.category.rawValue)\""
        json += ",\"latitude\":\(place.latitude),\"longitude\":\(place.longitude)"
        for (key, value) in [
            ("address", place.address), ("openingHours", place.openingHours), ("phone", place.phone), ("website", place.website),
            ("internetAccess", place.internetAccess),
        ] {
            if let value { json += ",\"\(key)\":\(JSONString.quoted(value))" }
        }
        json += ",\"userAdded\":\(place.addedBy != nil)"
        if place.review != .approved { json += ",\"review\":\"\(place.review.rawValue)\"" }
        return json
    }

    /// A `PlacePage` body from a page of grid entries and their pins; `importing` is written when known (P1).
    static func page(_ nearby: NearbyPage) -> ByteBuffer {
        let (found, pins, page, pageSize, hasMore, importing) = (
            nearby.found, nearby.pins, nearby.page, nearby.pageSize, nearby.hasMore, nearby.importing
        )
        var buffer = ByteBuffer()
        buffer.reserveCapacity(64 + found.reduce(0) { $0 + $1.entry.rendered.utf8.count + 48 })
        buffer.writeString("{\"places\":[")
        for (index, (item, pin)) in zip(found, pins).enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeString(item.entry.rendered)
            buffer.writeString(",\"pin\":\"\(pin)\"")
            if let distance = item.distanceMetres {
                buffer.writeString(",\"distanceMetres\":\((distance * 10).rounded() / 10)")
            }
            buffer.writeString("}")
        }
        buffer.writeString("],\"page\":\(page),\"pageSize\":\(pageSize),\"hasMore\":\(hasMore)")
        if let importing { buffer.writeString(",\"importing\":\(importing)") }
        buffer.writeString("}")
        return buffer
    }
}
