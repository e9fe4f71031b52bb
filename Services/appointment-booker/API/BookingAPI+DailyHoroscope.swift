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
        let change = DailyHoroscopeChange(enabled: body.enabled, sign: body.sign?.rawValue, localTime: body.localTime, timeZone: body.timeZone)
        return .ok(.init(body: .json(.init(try await SetDailyHoroscope(settings: dailyHoroscopes)(change, of: user)))))
    }
}

extension Components.Schemas.DailyHoroscope {
    init(_ setting: DailyHoroscopeSetting) {
        self.init(
            enabled: setting.enabled, sign: setting.sign.flatMap(Components.Schemas.ZodiacSign.init(rawValue:)),
            localTime: setting.localTime, timeZone: setting.timeZone)
    }
}
