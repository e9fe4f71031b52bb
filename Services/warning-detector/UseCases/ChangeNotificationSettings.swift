import Foundation

/// Changes a user's notification settings (A4): only what the change names; everything else keeps its value (on by
/// default). Settings of a city that is not (yet) a favourite are kept and apply once it is. Answers the settings
/// as they are after the change.
struct ChangeNotificationSettings: Sendable {
    /// One city's switches to change; nil keeps a value.
    struct Switches: Sendable, Equatable {
        var forecasts: Bool?
        var warnings: Bool?
    }

    let settings: any NotificationSettingsStore

    /// Throws `SettingsRefusal.tooManyFavourites` past `NotificationSettingsRules.maxFavourites`, changing nothing.
    func callAsFunction(
        userId: String, currentLocation: Switches?, favourites: [(cityId: Int, switches: Switches)]
    ) async throws -> UserStore.Settings {
        guard NotificationSettingsRules.allows(favouriteCount: favourites.count) else { throw SettingsRefusal.tooManyFavourites }
        let current = currentLocation.map {
            UserStore.SettingChange(cityId: UserStore.currentLocation, forecasts: $0.forecasts, warnings: $0.warnings)
        }
        let changes = favourites.map {
            UserStore.SettingChange(cityId: $0.cityId, forecasts: $0.switches.forecasts, warnings: $0.switches.warnings)
        }
        try await settings.setSettings(userId: userId, (current.map { [$0] } ?? []) + changes)
        return try await settings.settings(userId: userId)
    }
}
