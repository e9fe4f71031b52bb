import Foundation
import PlatformEvents

/// One place's notification switches (A4): everything on unless the user turned it off.
package struct NotificationSetting: Sendable, Equatable {
    package var forecasts = true
    package var warnings = true

    package init(forecasts: Bool = true, warnings: Bool = true) {
        self.forecasts = forecasts
        self.warnings = warnings
    }
}

/// A user's notification settings (A4): the current location's and each favourite's.
package struct NotificationSettings: Sendable {
    package var currentLocation: NotificationSetting
    package var favourites: [(city: ForecastCity, setting: NotificationSetting)]

    package init(currentLocation: NotificationSetting, favourites: [(city: ForecastCity, setting: NotificationSetting)]) {
        self.currentLocation = currentLocation
        self.favourites = favourites
    }
}
