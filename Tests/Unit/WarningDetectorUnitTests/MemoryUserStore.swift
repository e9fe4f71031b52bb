import Foundation
import PlatformEvents
import Synchronization

@testable import WarningDetector

/// `UserStore`'s settings and devices in memory, with the rules Postgres keeps: settings are stored per city and
/// apply to the favourites the user has (everything on by default; a change leaves what it does not name); a token
/// is held by one account and moves to another only from the install it was registered with (the SQL guard of the
/// write, kept here so that the use case's own judgement can be tested against a store that still refuses).
final class MemoryUserStore: NotificationSettingsStore, DeviceRegistry {
    private struct Held {
        var device: RegisteredDevice
        var userId: String
        var installId: String?
    }

    private struct State {
        var favourites: [String: [ForecastCity]] = [:]
        var settings: [String: [Int: NotificationSetting]] = [:]
        var devices: [String: Held] = [:]
        var settingWrites = 0
        /// Runs once before the next device write: another request registering in between.
        var beforeRegister: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    var settingWrites: Int { state.withLock { $0.settingWrites } }
    func addFavourite(_ city: ForecastCity, of user: String) { state.withLock { $0.favourites[user, default: []].append(city) } }
    func holderOf(_ token: String) -> String? { state.withLock { $0.devices[token]?.userId } }
    func device(_ token: String) -> RegisteredDevice? { state.withLock { $0.devices[token]?.device } }
    func beforeNextRegister(_ action: @escaping @Sendable () -> Void) { state.withLock { $0.beforeRegister = action } }

    /// Puts a device in place as another request would, without any rule.
    func seed(_ device: RegisteredDevice, installId: String?, userId: String) {
        state.withLock { $0.devices[device.token] = Held(device: device, userId: userId, installId: installId) }
    }

    func settings(userId: String) async throws -> NotificationSettings {
        state.withLock { state in
            let stored = state.settings[userId] ?? [:]
            return NotificationSettings(
                currentLocation: stored[NotificationSettingChange.currentLocation] ?? .init(),
                favourites: (state.favourites[userId] ?? []).map { ($0, stored[$0.id] ?? .init()) })
        }
    }

    func setSettings(userId: String, _ changes: [NotificationSettingChange]) async throws {
        state.withLock { state in
            state.settingWrites += 1
            for change in changes {
                var setting = state.settings[userId]?[change.cityId] ?? .init()
                setting.forecasts = change.forecasts ?? setting.forecasts
                setting.warnings = change.warnings ?? setting.warnings
                state.settings[userId, default: [:]][change.cityId] = setting
            }
        }
    }

    func holder(ofToken token: String) async throws -> DeviceHolder? {
        state.withLock { $0.devices[token].map { DeviceHolder(userId: $0.userId, installId: $0.installId) } }
    }

    func register(_ device: RegisteredDevice, installId: String?, userId: String) async throws -> Bool {
        let racing = state.withLock { state in
            defer { state.beforeRegister = nil }
            return state.beforeRegister
        }
        racing?()
        return state.withLock { state in
            if let held = state.devices[device.token], held.userId != userId, installId == nil || held.installId != installId {
                return false
            }
            let kept = state.devices[device.token]?.installId
            state.devices[device.token] = Held(device: device, userId: userId, installId: installId ?? kept)
            return true
        }
    }

    func unregister(token: String, userId: String) async throws -> Bool {
        state.withLock { state in
            guard state.devices[token]?.userId == userId else { return false }
            state.devices[token] = nil
            return true
        }
    }
}
