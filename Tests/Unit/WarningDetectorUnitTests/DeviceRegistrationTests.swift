import Foundation
import Testing

@testable import WarningDetector

/// Registering and removing devices (A5) over `MemoryUserStore`: a token another account holds moves only from its
/// own app install, and a user removes only their own devices.
@Suite("warning-detector: RegisterDevice and UnregisterDevice")
struct DeviceRegistrationTests {
    static let token = String(repeating: "ab", count: 32)

    static func device(city: Int? = 2_950_159) -> RegisteredDevice {
        RegisteredDevice(token: token, currentCityId: city, timeZone: "Europe/Berlin", app: .weather, language: "en")
    }

    @Test("A5: a new token registers; registering again updates the device")
    func registerAndUpdate() async throws {
        let store = MemoryUserStore()
        let register = RegisterDevice(devices: store)
        try await register(Self.device(), installId: "install-1", userId: "u1")
        try await register(Self.device(city: 1_609_350), installId: nil, userId: "u1")
        #expect(store.holderOf(Self.token) == "u1" && store.device(Self.token)?.currentCityId == 1_609_350)
    }

    @Test("A5: another account's token does not move without its install id, or with another install's")
    func tokenStaysWithOtherAccount() async throws {
        let store = MemoryUserStore()
        store.seed(Self.device(), installId: "install-1", userId: "u1")
        let register = RegisterDevice(devices: store)
        for claimed in [nil, "install-2"] {
            await #expect(throws: DeviceRefusal.registeredElsewhere) {
                try await register(Self.device(city: 1_609_350), installId: claimed, userId: "u2")
            }
        }
        #expect(store.holderOf(Self.token) == "u1" && store.device(Self.token)?.currentCityId == 2_950_159)
    }

    @Test("A5: a token registered without an install id never moves to another account")
    func noInstallIdNeverMoves() async throws {
        let store = MemoryUserStore()
        store.seed(Self.device(), installId: nil, userId: "u1")
        await #expect(throws: DeviceRefusal.registeredElsewhere) {
            try await RegisterDevice(devices: store)(Self.device(), installId: nil, userId: "u2")
        }
        #expect(store.holderOf(Self.token) == "u1")
    }

    @Test("A5: the same app install moves its token to the account now signed in")
    func sameInstallMovesToken() async throws {
        let store = MemoryUserStore()
        store.seed(Self.device(), installId: "install-1", userId: "u1")
        try await RegisterDevice(devices: store)(Self.device(), installId: "install-1", userId: "u2")
        #expect(store.holderOf(Self.token) == "u2")
    }

    @Test("A5: a token taken by another account between the read and the write is refused by the store's guard")
    func racingRegistrationRefused() async throws {
        let store = MemoryUserStore()
        store.beforeNextRegister { store.seed(Self.device(), installId: "install-9", userId: "u9") }
        await #expect(throws: DeviceRefusal.registeredElsewhere) {
            try await RegisterDevice(devices: store)(Self.device(), installId: "install-1", userId: "u1")
        }
        #expect(store.holderOf(Self.token) == "u9")
    }

    @Test("A5: the holder's rule: its own account, or the same install; never a missing install id")
    func holderRule() {
        let holder = DeviceHolder(userId: "u1", installId: "install-1")
        #expect(holder.letsRegister(userId: "u1", installId: nil) && holder.letsRegister(userId: "u2", installId: "install-1"))
        #expect(!holder.letsRegister(userId: "u2", installId: nil) && !holder.letsRegister(userId: "u2", installId: "install-2"))
        #expect(!DeviceHolder(userId: "u1", installId: nil).letsRegister(userId: "u2", installId: nil))
    }

    @Test("A5: a user removes their own device; another account's token or an unknown one is not found")
    func unregisterOnlyOwn() async throws {
        let store = MemoryUserStore()
        store.seed(Self.device(), installId: "install-1", userId: "u1")
        let unregister = UnregisterDevice(devices: store)
        await #expect(throws: DeviceRefusal.notFound) { try await unregister(token: Self.token, userId: "u2") }
        #expect(store.holderOf(Self.token) == "u1")
        try await unregister(token: Self.token, userId: "u1")
        #expect(store.holderOf(Self.token) == nil)
        await #expect(throws: DeviceRefusal.notFound) { try await unregister(token: Self.token, userId: "u1") }
    }
}
