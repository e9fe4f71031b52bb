import Foundation

/// What registering and removing devices (A5) needs from storage: `UserStore` in Postgres, a memory one in the unit
/// tests.
package protocol DeviceRegistry: Sendable {
    /// Who holds the token now; nil for a token nobody registered.
    func holder(ofToken token: String) async throws -> DeviceHolder?
    /// Registers or updates the device for the user; false when the token is another account's and `installId` is
    /// not its install (the store checks again in the write, for registrations racing each other).
    func register(_ device: RegisteredDevice, installId: String?, userId: String) async throws -> Bool
    /// Removes the user's device; false when they have no such device.
    func unregister(token: String, userId: String) async throws -> Bool
}
