import Foundation
import PlatformCore
import PlatformHTTP

/// The API's generated shapes made from the domain's. Kinds, severities and delivery states are closed sets
/// in both; `WarningContractTests` checks they are the same sets, so the fallbacks below are never taken.
extension Components.Schemas.Warning {
    init(_ warning: Warning) {
        self.init(
            id: warning.id.uuidString.lowercased(), cityId: warning.cityId, kind: KindPayload(rawValue: warning.kind.rawValue) ?? .heat,
            announcementNumber: warning.announcementNumber, location: warning.location, region: warning.region,
            latitude: warning.latitude, longitude: warning.longitude, severity: SeverityPayload(rawValue: warning.severity.capName) ?? .moderate,
            status: warning.status, statusDescription: warning.statusDescription, timeZone: warning.timeZone, onset: warning.onset,
            ends: warning.ends, onsetText: WarningDateFormat.string(warning.onset, timeZone: warning.timeZone),
            endsText: WarningDateFormat.string(warning.ends, timeZone: warning.timeZone))
    }
}

extension Components.Schemas.News {
    init(_ item: NewsItem) {
        self.init(
            id: item.id.uuidString.lowercased(), name: item.name, body: item.body, location: item.location, happenedAt: item.happenedAt,
            timeZone: item.timeZone, happenedAtText: WarningDateFormat.string(item.happenedAt, timeZone: item.timeZone),
            publishedAt: item.publishedAt)
    }
}

extension Components.Schemas.Delivery {
    init(_ entry: PushQueue.LogEntry) {
        self.init(
            id: entry.id.uuidString.lowercased(), deviceToken: entry.deviceToken, userId: entry.userId,
            kind: KindPayload(rawValue: entry.kind.rawValue) ?? .warning,
            status: StatusPayload(rawValue: entry.status.rawValue) ?? .pending, attempts: entry.attempts, lastStatus: entry.lastStatus,
            lastError: entry.lastError, createdAt: entry.createdAt, finishedAt: entry.finishedAt)
    }
}

extension Components.Responses.Settings {
    init(_ settings: NotificationSettings) {
        self.init(
            body: .json(
                .init(
                    currentLocation: .init(forecasts: settings.currentLocation.forecasts, warnings: settings.currentLocation.warnings),
                    favourites: settings.favourites.map {
                        .init(cityId: $0.city.id, name: $0.city.name, forecasts: $0.setting.forecasts, warnings: $0.setting.warnings)
                    })))
    }
}

/// What a news item must be beyond its JSON shape (A6).
enum NewsRules {

    /// The item to publish, or 400 for a value the document does not allow, or 422 for a moment that does not
    /// exist or an unknown time zone.
    static func draft(from body: Components.Schemas.NewNews) throws -> NewsDraft {
        var outside: [String: String] = [:]
        func checked(_ value: String, _ field: String, max: Int) -> String {
            let trimmed = RequestText.trimmed(value)
            if trimmed.isEmpty {
                outside[field] = "must not be blank"
            } else if RequestText.length(value) > max {
                outside[field] = "must be at most \(max) characters"
            }
            return trimmed
        }
        let name = checked(body.name, "name", max: 200)
        let content = checked(body.body, "body", max: 20_000)
        let location = checked(body.location, "location", max: 200)
        if !body.date.utf8.elementsEqual("0000-00-00".utf8, by: { Self.sameShape($0, $1) }) { outside["date"] = "must be yyyy-MM-dd" }
        if !body.time.utf8.elementsEqual("00:00".utf8, by: { Self.sameShape($0, $1) }) { outside["time"] = "must be HH:mm" }
        if let zone = body.timeZone, RequestText.length(zone) > 64 { outside["timeZone"] = "must be at most 64 characters" }
        guard outside.isEmpty else { throw JSONBody.schemaViolation(outside) }
        let zoneName = RequestText.withoutNUL(body.timeZone ?? "UTC")
        guard let zone = TimeZone(identifier: zoneName) else {
            throw JSONBody.validationError(["timeZone": "must be an IANA time zone such as Europe/Berlin"])
        }
        guard let happenedAt = moment(body.date, body.time, in: zone) else {
            throw JSONBody.validationError(["date": "date must be yyyy-MM-dd and time HH:mm (24-hour), a real moment"])
        }
        return NewsDraft(name: name, body: content, location: location, timeZone: zoneName, happenedAt: happenedAt)
    }

    /// A digit where the pattern has a digit, the same character elsewhere.
    static func sameShape(_ byte: UInt8, _ pattern: UInt8) -> Bool {
        pattern == UInt8(ascii: "0") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == pattern
    }

    /// Parses strictly: `2026-02-30` or `25:00` are refused rather than rolled over.
    static func moment(_ date: String, _ time: String, in zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.isLenient = false
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let text = "\(date) \(time)"
        guard let parsed = formatter.date(from: text), formatter.string(from: parsed) == text else { return nil }
        return parsed
    }
}

extension Components.Schemas.Device {
    init(_ device: RegisteredDevice) {
        self.init(
            token: device.token, currentCityId: device.currentCityId, timeZone: device.timeZone,
            app: .init(rawValue: device.app.rawValue) ?? .weather, language: device.language)
    }
}
