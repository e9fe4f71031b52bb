import Foundation
import Synchronization

@testable import AppointmentBooker

/// Daily horoscope settings in memory, as `DailyHoroscopeStore` keeps them: off with nothing chosen for a user who
/// never set one, the whole setting stored on each change, and the zones the database knows.
final class MemoryDailyHoroscopes: DailyHoroscopeSettings {
    private let rows = Mutex<[String: DailyHoroscopeSetting]>([:])
    /// The zones Postgres knows by name (`pg_timezone_names`).
    let zones: Set<String>

    init(zones: Set<String> = ["Asia/Bangkok", "Europe/Paris", "UTC"]) {
        self.zones = zones
    }

    func setting(of user: String) async throws -> DailyHoroscopeSetting {
        rows.withLock { $0[user] } ?? DailyHoroscopeSetting(enabled: false)
    }

    func knows(zone: String) async throws -> Bool { zones.contains(zone) }

    func set(_ change: DailyHoroscopeSetting, of user: String) async throws -> DailyHoroscopeSetting {
        rows.withLock { $0[user] = change }
        return change
    }
}
