import Foundation
import NIOCore
import Synchronization

/// Encoded answers of a hand-registered hot route, kept by key: the slot listing (for `ttl`, dropped per
/// partner on every change this instance makes) and the daily horoscope (no TTL: an answer is fixed by its
/// key). Past `capacity` entries it starts afresh, which bounds memory whatever callers ask for.
final class EncodedAnswerCache<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        var body: ByteBuffer
        /// Nil: valid until dropped.
        var expires: ContinuousClock.Instant?
    }

    /// Nil: entries do not expire; zero: nothing is kept.
    let ttl: Duration?
    private let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    init(ttl: Duration?, capacity: Int) {
        self.ttl = ttl
        self.capacity = capacity
    }

    func body(for key: Key, now: ContinuousClock.Instant = .now) -> ByteBuffer? {
        guard ttl != .zero else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if let expires = entry.expires, expires <= now {
                entries[key] = nil
                return nil
            }
            return entry.body
        }
    }

    func store(_ body: ByteBuffer, for key: Key, now: ContinuousClock.Instant = .now) {
        guard ttl != .zero else { return }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(body: body, expires: ttl.map { now + $0 })
        }
    }

    /// Drops every answer whose key matches.
    func invalidate(where matches: (Key) -> Bool) {
        entries.withLock { entries in
            entries = entries.filter { !matches($0.key) }
        }
    }
}

/// A slot listing's parameters (`SlotListingRoute`).
struct SlotListingKey: Hashable, Sendable {
    var partner: UUID
    var from: String?
    var days: Int
    var zone: String?
}

/// Slot listings for `APPOINTMENT_SLOTS_CACHE_MS` (1 s): a popular partner costs two queries and one slot
/// computation per second rather than per request. A change through another instance shows within the TTL;
/// the listing stays advisory, the database's exclusion constraint decides every booking.
typealias SlotListingCache = EncodedAnswerCache<SlotListingKey>

extension EncodedAnswerCache where Key == SlotListingKey {
    convenience init(ttl: Duration) {
        self.init(ttl: ttl, capacity: 10_000)
    }

    /// Drops every listing of `partner` (a booking, a move, a cancellation, new availability or profile).
    func invalidate(partner: UUID) {
        invalidate { $0.partner == partner }
    }
}

/// A daily horoscope's key: at most 12 × 2 answers per day asked.
struct HoroscopeKey: Hashable, Sendable {
    var sign: String
    var day: LocalDate
    var language: Language
}
