import Foundation
import NIOCore
import Synchronization

/// Keeps each slot listing's encoded answer for `APPOINTMENT_SLOTS_CACHE_MS` (1 s), so a popular partner
/// costs two queries and one slot computation per second rather than per request. A change this instance
/// makes (a booking, a move, a cancellation, new availability or profile) drops the partner's entries at
/// once; a change through another instance shows within the TTL. The listing stays advisory: the
/// database's exclusion constraint decides every booking.
final class SlotListingCache: Sendable {
    struct Key: Hashable, Sendable {
        var partner: UUID
        var from: String?
        var days: Int
        var zone: String?
    }

    private struct Entry {
        var body: ByteBuffer
        var expires: ContinuousClock.Instant
    }

    let ttl: Duration
    /// A bound on memory: past it the cache starts afresh (entries live a second anyway).
    private let capacity = 10_000
    private let entries = Mutex<[Key: Entry]>([:])

    init(ttl: Duration) {
        self.ttl = ttl
    }

    func body(for key: Key, now: ContinuousClock.Instant = .now) -> ByteBuffer? {
        guard ttl > .zero else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.body
        }
    }

    func store(_ body: ByteBuffer, for key: Key, now: ContinuousClock.Instant = .now) {
        guard ttl > .zero else { return }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(body: body, expires: now + ttl)
        }
    }

    /// Drops every answer about `partner`.
    func invalidate(partner: UUID) {
        entries.withLock { entries in
            entries = entries.filter { $0.key.partner != partner }
        }
    }
}
