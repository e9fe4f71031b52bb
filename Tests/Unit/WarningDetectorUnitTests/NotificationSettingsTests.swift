import Foundation
import PlatformEvents
import Testing

@testable import WarningDetector

/// Changing notification settings (A4) over `MemoryUserStore`: only what a change names changes, everything is on
/// by default, and a change names at most 100 favourites.
@Suite("warning-detector: ChangeNotificationSettings")
struct NotificationSettingsTests {
    static let berlin = ForecastCity(
        id: 2_950_159, name: "Berlin", region: "Land Berlin", countryCode: "DE", country: "Germany", latitude: 52.52, longitude: 13.41,
        timeZone: "Europe/Berlin")

    typealias Switches = ChangeNotificationSettings.Switches

    @Test("A4: a change sets only what it names; the rest stays on")
    func changesOnlyWhatItNames() async throws {
        let store = MemoryUserStore()
        store.addFavourite(Self.berlin, of: "u1")
        let change = ChangeNotificationSettings(settings: store)
        _ = try await change(userId: "u1", currentLocation: Switches(forecasts: false), favourites: [])
        let after = try await change(userId: "u1", currentLocation: nil, favourites: [(Self.berlin.id, Switches(warnings: false))])
        #expect(after.currentLocation == NotificationSetting(forecasts: false, warnings: true))
        #expect(after.favourites.map { $0.setting } == [NotificationSetting(forecasts: true, warnings: false)])
        #expect(try await store.settings(userId: "u2").currentLocation == NotificationSetting())
    }

    @Test("A4: a setting for a city that is not yet a favourite applies once it is")
    func settingBeforeFavourite() async throws {
        let store = MemoryUserStore()
        let change = ChangeNotificationSettings(settings: store)
        let before = try await change(userId: "u1", currentLocation: nil, favourites: [(Self.berlin.id, Switches(forecasts: false))])
        #expect(before.favourites.isEmpty)
        store.addFavourite(Self.berlin, of: "u1")
        #expect(try await store.settings(userId: "u1").favourites.map { $0.setting } == [NotificationSetting(forecasts: false, warnings: true)])
    }

    @Test("A4: 100 favourites are a change; 101 are refused and change nothing")
    func atMostHundredFavourites() async throws {
        let store = MemoryUserStore()
        let change = ChangeNotificationSettings(settings: store)
        let hundred = (1...100).map { ($0, Switches(warnings: false)) }
        _ = try await change(userId: "u1", currentLocation: nil, favourites: hundred)
        #expect(store.settingWrites == 1)
        await #expect(throws: SettingsRefusal.tooManyFavourites) {
            _ = try await change(userId: "u1", currentLocation: Switches(forecasts: false), favourites: hundred + [(101, Switches())])
        }
        #expect(store.settingWrites == 1)
        #expect(try await store.settings(userId: "u1").currentLocation == NotificationSetting())
    }
}
