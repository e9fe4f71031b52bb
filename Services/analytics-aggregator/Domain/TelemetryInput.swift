import Foundation
import PlatformCore
import PlatformEvents

/// One element of a telemetry batch as sent, read leniently: a field of the wrong type is a problem of that
/// event (reported by index), not of the batch, so one bad event does not cost the app its good ones.
package struct TelemetryInput: Decodable {
    package var id: String?
    package var kind: String?
    package var occurredAt: String?
    package var deviceId: String?
    package var userId: String?
    package var platform: String?
    package var appVersion: String?
    package var feature: String?
    package var screen: String?
    package var cityId: Int?
    package var cityName: String?
    /// Fields present with a type the document does not allow, or an element that is not an object.
    package var wrongTypes: [String] = []

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, kind, occurredAt, deviceId, userId, platform, appVersion, feature, screen, cityId, cityName
    }

    package init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            wrongTypes = ["event"]
            return
        }
        func text(_ key: CodingKeys) -> String? {
            guard container.contains(key) else { return nil }
            if let value = try? container.decode(String.self, forKey: key) { return value }
            wrongTypes.append(key.rawValue)
            return nil
        }
        id = text(.id)
        kind = text(.kind)
        occurredAt = text(.occurredAt)
        deviceId = text(.deviceId)
        userId = text(.userId)
        platform = text(.platform)
        appVersion = text(.appVersion)
        feature = text(.feature)
        screen = text(.screen)
        cityName = text(.cityName)
        if container.contains(.cityId) {
            if let value = try? container.decode(Int.self, forKey: .cityId) { cityId = value } else { wrongTypes.append("cityId") }
        }
    }
}

/// Why one event of a batch was refused.
package struct TelemetryRejection: Encodable, Equatable {
    package var index: Int
    package var code: String
    package var message: String

    package init(index: Int, code: String, message: String) {
        self.index = index
        self.code = code
        self.message = message
    }
}

/// The rules of N1 for one event, against the server's clock.
package struct TelemetryRules: Sendable {

    package var maxAge: TimeInterval
    package var maxSkew: TimeInterval

    package init(maxAge: TimeInterval, maxSkew: TimeInterval) {
        self.maxAge = maxAge
        self.maxSkew = maxSkew
    }

    /// The event as published, with its time, or why not.
    package func check(_ input: TelemetryInput, app: TelemetryApp, now: Date) -> Result<(TelemetryRecorded, Date), RuleFailure> {
        if !input.wrongTypes.isEmpty {
            return .failure(.init("wrong_type", "\(input.wrongTypes.joined(separator: ", ")) has the wrong type"))
        }
        guard let idText = input.id, let id = UUIDText.parse(idText) ?? UUID(uuidString: idText) else {
            return .failure(.init("invalid_id", "id must be a UUID"))
        }
        guard let kindText = input.kind, let kind = TelemetryKind(rawValue: kindText) else {
            return .failure(.init("invalid_kind", "kind must be one of install, feature_used, screen_viewed, city_viewed"))
        }
        guard let timeText = input.occurredAt, let time = Self.date(timeText),
            EventDecodingError.storableDates.contains(time)
        else {
            return .failure(.init("invalid_time", "occurredAt must be an ISO 8601 date-time"))
        }
        if time < now.addingTimeInterval(-maxAge) { return .failure(.init("too_old", "occurredAt is older than the service keeps")) }
        if time > now.addingTimeInterval(maxSkew) { return .failure(.init("in_the_future", "occurredAt is ahead of the server's clock")) }
        guard let device = Self.text(input.deviceId, max: 128) else {
            return .failure(.init("invalid_device", "deviceId must be 1 to 128 characters"))
        }
        var event = TelemetryRecorded(app: app, clientEventId: id, kind: kind, deviceId: device)
        if let user = input.userId {
            guard let user = Self.text(user, max: 128) else { return .failure(.init("invalid_user", "userId must be 1 to 128 characters")) }
            // Lower case, as account ids are everywhere: erasure finds the account's pseudonym by it (U9).
            event.userId = user.lowercased()
        }
        if let platform = input.platform {
            guard let platform = TelemetryPlatform(rawValue: platform) else {
                return .failure(.init("invalid_platform", "platform must be ios, android or web"))
            }
            event.platform = platform
        }
        if let version = input.appVersion {
            guard let version = Self.text(version, max: 32) else {
                return .failure(.init("invalid_version", "appVersion must be 1 to 32 characters"))
            }
            event.appVersion = version
        }
        switch kind {
        case .install:
            guard event.platform != nil, event.appVersion != nil else {
                return .failure(.init("missing_field", "an install needs platform and appVersion"))
            }
        case .featureUsed:
            guard let feature = Self.text(input.feature, max: 100) else {
                return .failure(.init("missing_field", "feature_used needs feature (1 to 100 characters)"))
            }
            event.feature = feature
        case .screenViewed:
            guard let screen = Self.text(input.screen, max: 100) else {
                return .failure(.init("missing_field", "screen_viewed needs screen (1 to 100 characters)"))
            }
            event.screen = screen
        case .cityViewed:
            guard let city = input.cityId, (1...Int(Int32.max)).contains(city) else {
                return .failure(.init("missing_field", "city_viewed needs cityId (a positive 32-bit integer)"))
            }
            event.cityId = city
            if let name = input.cityName {
                guard let name = Self.text(name, max: 200) else {
                    return .failure(.init("invalid_city_name", "cityName must be 1 to 200 characters"))
                }
                event.cityName = name
            }
        }
        return .success((event, time))
    }

    package struct RuleFailure: Error {
        package var code: String
        package var message: String
        package init(_ code: String, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Text of 1...`max` code points after trimming, without NULs; nil otherwise.
    package static func text(_ value: String?, max: Int) -> String? {
        guard let value else { return nil }
        let trimmed = RequestText.trimmed(value)
        guard (1...max).contains(RequestText.length(trimmed)) else { return nil }
        return trimmed
    }

    package static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        if let date = ISO8601Fast.parse(text) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
