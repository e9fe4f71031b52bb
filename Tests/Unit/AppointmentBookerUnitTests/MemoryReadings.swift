import Foundation
import PlatformCore
import Synchronization

@testable import AppointmentBooker

/// Readings kept in memory with the rules Postgres keeps for `ReadingStore`: one reading per user, kind, inputs
/// and day (asked again, the first is returned), at most `dailyLimit` different ones per user (every reading
/// here was kept within the last 24 hours).
final class MemoryReadings: ReadingArchive {
    struct Key: Hashable {
        var user: String
        var kind: Reading.Kind
        var inputs: String
        var day: String
    }

    private let rows = Mutex<[(key: Key, stored: StoredReading)]>([])
    let dailyLimit: Int

    init(dailyLimit: Int = 200) {
        self.dailyLimit = dailyLimit
    }

    var count: Int { rows.withLock { $0.count } }

    func keep(_ reading: Reading, user: String, inputs: String, day: CivilDate, contentVersion: String) async throws -> StoredReading {
        let key = Key(user: user, kind: reading.kind, inputs: inputs, day: day.description)
        return try rows.withLock { rows in
            if let existing = rows.first(where: { $0.key == key }) { return existing.stored }
            guard rows.filter({ $0.key.user == user }).count < dailyLimit else {
                throw TooManyReadings(limit: dailyLimit, retryAfterSeconds: 86_400)
            }
            let stored = StoredReading(id: UUID(), shareId: "share\(rows.count)", reading: reading, createdAt: Date())
            rows.append((key, stored))
            return stored
        }
    }

    func shared(_ shareId: String) async throws -> StoredReading? {
        rows.withLock { rows in rows.first { $0.stored.shareId == shareId }?.stored }
    }

    func history(of user: String, limit: Int, offset: Int) async throws -> [StoredReading] {
        rows.withLock { rows in Array(rows.filter { $0.key.user == user }.map(\.stored).reversed().dropFirst(offset).prefix(limit)) }
    }
}

/// The places of worship read model in memory: every place is within the radius asked.
struct MemoryWorshipPlaces: WorshipPlaces {
    var places: [NearbyWorshipPlace]

    func near(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws -> [NearbyWorshipPlace] {
        Array(places.prefix(limit))
    }
}

/// The requests to places-importer in memory: records each point asked about and answers `status`; `known` tells
/// `standing` and records nothing.
final class MemoryWorshipRequests: WorshipRequests {
    let asked = Mutex<[(latitude: Double, longitude: Double)]>([])
    let networks = Mutex<[String]>([])
    let answer: PlacesToPrayStatus
    let standing: PlacesToPrayStatus?

    init(answer: PlacesToPrayStatus = .looking, standing: PlacesToPrayStatus? = nil) {
        self.answer = answer
        self.standing = standing
    }

    func status(latitude: Double, longitude: Double, radius: Double, network: String) async throws -> PlacesToPrayStatus {
        asked.withLock { $0.append((latitude, longitude)) }
        networks.withLock { $0.append(network) }
        return answer
    }

    func known(latitude: Double, longitude: Double) async throws -> PlacesToPrayStatus? { standing }
}
