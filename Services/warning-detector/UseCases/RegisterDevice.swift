import Foundation

/// Registers a device's push token for the user with its current location, time zone, app and language (A5);
/// registering again updates them. A token another account holds moves only from its own app install
/// (`DeviceHolder.letsRegister`): judged on the holder as read, and again by the store's write, so a registration
/// racing another is refused rather than taking the token.
package struct RegisterDevice: Sendable {
    package let devices: any DeviceRegistry

    package init(devices: any DeviceRegistry) {
        self.devices = devices
    }

    /// Throws `DeviceRefusal.registeredElsewhere` when the token stays with another account.
    package func callAsFunction(_ device: RegisteredDevice, installId: String?, userId: String) async throws {
        if let holder = try await devices.holder(ofToken: device.token), !holder.letsRegister(userId: userId, installId: installId) {
            throw DeviceRefusal.registeredElsewhere
        }
        guard try await devices.register(device, installId: installId, userId: userId) else { throw DeviceRefusal.registeredElsewhere }
    }
}
