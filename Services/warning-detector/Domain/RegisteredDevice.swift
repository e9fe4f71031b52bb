import Foundation

/// A device registered for pushes (A5): its token, where it is, its time zone, app and language.
package struct RegisteredDevice: Sendable, Equatable {
    package var token: String
    package var currentCityId: Int?
    package var timeZone: String?
    /// Whose APNs topic its pushes go under (A5).
    package var app: PushApp = .weather
    package var language: String?

    package init(token: String, currentCityId: Int? = nil, timeZone: String? = nil, app: PushApp = .weather, language: String? = nil) {
        self.token = token
        self.currentCityId = currentCityId
        self.timeZone = timeZone
        self.app = app
        self.language = language
    }
}
