import Foundation

/// One row of settings to change: the current location (`currentLocation`) or a favourite's city; nil keeps a
/// value as it is (on by default).
package struct NotificationSettingChange: Sendable {
    /// The settings row of the current location.
    package static let currentLocation = 0

    package var cityId: Int
    package var forecasts: Bool?
    package var warnings: Bool?

    package init(cityId: Int, forecasts: Bool? = nil, warnings: Bool? = nil) {
        self.cityId = cityId
        self.forecasts = forecasts
        self.warnings = warnings
    }
}
