import Foundation

/// What changing notification settings (A4) needs from storage: `UserStore` in Postgres, a memory one in the unit
/// tests.
package protocol NotificationSettingsStore: Sendable {
    /// The current location's settings and each favourite's, everything on unless changed.
    func settings(userId: String) async throws -> NotificationSettings
    /// Applies every change or none; a city named twice takes its last change.
    func setSettings(userId: String, _ changes: [NotificationSettingChange]) async throws
}
