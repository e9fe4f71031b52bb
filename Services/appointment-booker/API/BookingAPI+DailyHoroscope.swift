import Foundation
import PlatformCore
import PlatformHTTP

/// The daily horoscope notification's settings (B5, seed: "Users can set popup to show prediction in notification
/// everyday", "Users can turn on/off notification"); `DailyHoroscopeScheduler` sends it.
extension BookingAPI {
    func getDailyHoroscopeNotification(
        _ input: Operations.GetDailyHoroscopeNotification.Input
    ) async throws -> Operations.GetDailyHoroscopeNotification.Output {
        let user = AccountKey.of(try RequestScope.requireUser().id)
        return .ok(.init(body: .json(.init(try await dailyHoroscopes.setting(of: user)))))
    }

    func setDailyHoroscopeNotification(
        _ input: Operations.SetDailyHoroscopeNotification.Input
    ) async throws -> Operations.SetDailyHoroscopeNotification.Output {
        let user = AccountKey.of(try RequestScope.requireUser().id)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let stored = try await dailyHoroscopes.setting(of: user)
        var problems: [String: String] = [:]
        if let zone = body.timeZone {
            var known = RequestText.length(zone) <= 64 && TimeZone(identifier: zone) != nil
            if known { known = try await dailyHoroscopes.knows(zone: zone) }
            if !known { problems["timeZone"] = "must be an IANA time zone such as Asia/Bangkok" }
        }
        if let time = body.localTime, !(LocalTime(parsing: time).map { $0 < .endOfDay } ?? false) {
            problems["localTime"] = "must be HH:MM, 24-hour"
        }
        if body.enabled {
            if body.sign == nil && stored.sign == nil { problems["sign"] = "is needed to turn the notification on" }
            if body.localTime == nil && stored.localTime == nil { problems["localTime"] = "is needed to turn the notification on" }
            if body.timeZone == nil && stored.timeZone == nil { problems["timeZone"] = "is needed to turn the notification on" }
        }
        guard problems.isEmpty else { throw JSONBody.validationError(problems) }
        // The fields left out keep what they were.
        let change = DailyHoroscopeStore.Setting(
            enabled: body.enabled, sign: body.sign?.rawValue ?? stored.sign, localTime: body.localTime ?? stored.localTime,
            timeZone: body.timeZone ?? stored.timeZone)
        return .ok(.init(body: .json(.init(try await dailyHoroscopes.set(change, of: user)))))
    }
}

extension Components.Schemas.DailyHoroscope {
    init(_ setting: DailyHoroscopeStore.Setting) {
        self.init(
            enabled: setting.enabled, sign: setting.sign.flatMap(Components.Schemas.ZodiacSign.init(rawValue:)),
            localTime: setting.localTime, timeZone: setting.timeZone)
    }
}
