import Foundation

/// The apps whose devices get pushes (A5). APNs binds a device token to one app: a token sent under another
/// app's topic is refused (`DeviceTokenNotForTopic`).
package enum PushApp: String, Sendable, CaseIterable, Codable {
    case weather, horoscope

    package var defaultTopic: String { "com.example.\(rawValue)" }
}
