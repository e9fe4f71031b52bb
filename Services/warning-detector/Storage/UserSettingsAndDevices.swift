import Foundation

/// What changing notification settings (A4) needs from storage: `UserStore` in Postgres, a memory one in the unit
/// tests.
protocol NotificationSettingsStore: Sendable {
    /// The current location's settings and each favourite's, everything on unless changed.
    func settings(userId: String) async throws -> UserStore.Settings
    /// Applies every change or none; a city named twice takes its last change.
    func setSettings(userId: String, _ changes: [UserStore.SettingChange]) async throws
}

/// What registering and removing devices (A5) needs from storage: `UserStore` in Postgres, a memory one in the unit
/// tests.
protocol DeviceRegistry: Sendable {
    /// Who holds the token now; nil for a token nobody registered.
    func holder(ofToken token: String) async throws -> DeviceHolder?
    /// Registers or updates the device for the user; false when the token is another account's and `installId` is
    /// not its install (the store checks again in the write, for registrations racing each other).
    func register(_ device: UserStore.Device, installId: String?, userId: String) async throws -> Bool
    /// Removes the user's device; false when they have no such device.
    func unregister(token: String, userId: String) async throws -> Bool
}

/// What publishing news (A6) needs from storage: `NewsStore` in Postgres, a memory one in the unit tests.
protocol NewsPublishing: Sendable {
    func publish(_ draft: NewsDraft, by admin: String) async throws -> NewsStore.Item
}

extension UserStore: NotificationSettingsStore, DeviceRegistry {}
extension NewsStore: NewsPublishing {}
