import Foundation
import Synchronization

@testable import AppointmentBooker

/// The prayer book in memory, with what Postgres does for `PrayerStore`: a new prayer gets an id, an edit replaces
/// only the fields it names (`coalesce`), a removed prayer is gone.
final class MemoryPrayerBook: PrayerBook {
    private let rows = Mutex<[Prayer]>([])

    var all: [Prayer] { rows.withLock { $0 } }

    func add(title: Localized, text: Localized, mediaURL: String?) async throws -> Prayer? {
        let prayer = Prayer(id: UUID(), title: title, text: text, mediaURL: mediaURL)
        rows.withLock { $0.append(prayer) }
        return prayer
    }

    func update(_ id: UUID, with edit: PrayerEdit) async throws -> Prayer? {
        rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return nil }
            rows[index] = edit.applied(to: rows[index])
            return rows[index]
        }
    }

    func remove(_ id: UUID) async throws -> Bool {
        rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return false }
            rows.remove(at: index)
            return true
        }
    }
}
