import Foundation

/// Removes one of the user's devices (A5): a user removes only their own; another account's token is as unknown as
/// a token nobody registered.
package struct UnregisterDevice: Sendable {
    package let devices: any DeviceRegistry

    package init(devices: any DeviceRegistry) {
        self.devices = devices
    }

    /// Throws `DeviceRefusal.notFound` when the user has no device with the token.
    package func callAsFunction(token: String, userId: String) async throws {
        guard try await devices.unregister(token: token, userId: userId) else { throw DeviceRefusal.notFound }
    }
}
