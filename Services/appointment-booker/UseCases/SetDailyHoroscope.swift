import Foundation

/// A user turns the daily horoscope notification on or off, or changes its sign, time or zone (B5); the rule is
/// `DailyHoroscopeSetting.changed(by:zoneKnown:)`, over the setting as stored.
package struct SetDailyHoroscope: Sendable {
    package let settings: any DailyHoroscopeSettings

    package init(settings: any DailyHoroscopeSettings) {
        self.settings = settings
    }

    /// Throws `DailyHoroscopeRefusal` naming every field's problem.
    package func callAsFunction(_ change: DailyHoroscopeChange, of user: String) async throws -> DailyHoroscopeSetting {
        let stored = try await settings.setting(of: user)
        let next = try stored.changed(by: change, zoneKnown: try await isKnown(change.timeZone))
        return try await settings.set(next, of: user)
    }

    /// A zone of at most 64 code points that both Foundation and the database know (the scheduler reads each
    /// setting's clock in Postgres, and one zone it does not know would fail every round); no zone given is fine.
    private func isKnown(_ zone: String?) async throws -> Bool {
        guard let zone else { return true }
        guard zone.unicodeScalars.count <= 64, TimeZone(identifier: zone) != nil else { return false }
        return try await settings.knows(zone: zone)
    }
}
