import Foundation

/// Changes a user's notification settings (A4): only what the change names; everything else keeps its value (on by
/// default). Settings of a city that is not (yet) a favourite are kept and apply once it is. Answers the settings
/// as they are after the change.
package struct ChangeNotificationSettings: Sendable {
    /// One city's switches to change; nil keeps a value.
    package struct Switches: Sendable, Equatable {
        package var forecasts: Bool?
        package var warnings: Bool?

        package init(forecasts: Bool? = nil, warnings: Bool? = nil) {
            self.forecasts = forecasts
            self.warnings = warnings
        }
    }

    package let settings: any NotificationSettingsStore

    package init(settings: any NotificationSettingsStore) {
        self.settings = settings
    }

    /// Throws `SettingsRefusal.tooManyFavourites` past `NotificationSettingsRules.maxFavourites`, changing nothing.
    package func callAsFunction(
        userId: String, currentLocation: Switches?, favourites: [(cityId: Int, switches: Switches)]
    ) async throws -> NotificationSettings {
        guard NotificationSettingsRules.allows(favouriteCount: favourites.count) else { throw SettingsRefusal.tooManyFavourites }
        let current = currentLocation.map {
            NotificationSettingChange(cityId: NotificationSettingChange.currentLocation, forecasts: $0.forecasts, warnings: $0.warnings)
        }
        let changes = favourites.map {
            NotificationSettingChange(cityId: $0.cityId, forecasts: $0.switches.forecasts, warnings: $0.switches.warnings)
        }
        try await settings.setSettings(userId: userId, (current.map { [$0] } ?? []) + changes)
        return try await settings.settings(userId: userId)
    }
}
