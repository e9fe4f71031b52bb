import Foundation
import PlatformCore

/// A payload that writes its own JSON: the same members `EventCoding.encoder` writes (keys sorted, dates as
/// `ISO8601Fast.format`, a nil optional left out), for the events a service produces by the thousand per minute
/// (a forecast per city per refresh), where `JSONEncoder` cost more than the rest of the work. Consumers read them
/// with the same decoder as every other event; the tests hold each such payload to `JSONEncoder`'s output.
public protocol HandWrittenJSONPayload {
    func writeJSON(to json: inout JSONWriter) throws
}

extension EventEnvelope {
    /// The envelope's members in `EventCoding.encoder`'s order around a hand-written payload.
    func handWritten(_ payload: some HandWrittenJSONPayload) throws -> [UInt8] {
        var json = JSONWriter(capacity: 4_096)
        json.beginObject()
        json.member("id", id.uuidString)
        json.member("key", key)
        json.member("occurredAt", ISO8601Fast.format(occurredAt))
        json.key("payload")
        try payload.writeJSON(to: &json)
        json.member("producer", producer)
        json.member("schemaVersion", schemaVersion)
        json.member("type", type.rawValue)
        json.endObject()
        return json.bytes
    }
}

extension JSONWriter {
    /// A date as events write it.
    public mutating func member(_ key: String, _ date: Date) {
        member(key, ISO8601Fast.format(date))
    }
}

extension ForecastUpdated: HandWrittenJSONPayload {
    public func writeJSON(to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("city")
        try city.writeJSON(to: &json)
        json.member("currentCondition", currentCondition.rawValue)
        json.member("currentDescription", currentDescription)
        try json.member("currentTemperatureC", currentTemperatureC)
        json.member("fetchedAt", fetchedAt)
        json.key("hours")
        json.beginArray()
        for hour in hours { try hour.writeJSON(to: &json) }
        json.endArray()
        json.member("provider", provider)
        json.endObject()
    }
}

extension ForecastCity: HandWrittenJSONPayload {
    public func writeJSON(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("country", country)
        json.member("countryCode", countryCode)
        json.member("id", id)
        try json.member("latitude", latitude)
        try json.member("longitude", longitude)
        json.member("name", name)
        json.member("region", region)
        json.member("timeZone", timeZone)
        json.endObject()
    }
}

extension ForecastHour: HandWrittenJSONPayload {
    public func writeJSON(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("condition", condition.rawValue)
        json.member("description", description)
        try json.member("precipitationMm", precipitationMm)
        try json.member("snowfallCm", snowfallCm)
        try json.member("temperatureC", temperatureC)
        json.member("time", time)
        try json.member("visibilityKm", visibilityKm)
        try json.member("windGustKmh", windGustKmh)
        try json.member("windSpeedKmh", windSpeedKmh)
        json.endObject()
    }
}
