import Foundation
import NIOCore
import PlatformCore
import PlatformHTTP

/// Encoded answers of the hand-registered hot routes are kept in a `TTLCache` of bodies: the slot listing (for
/// a TTL, dropped per partner on every change this instance makes) and the daily horoscope (no TTL: an answer is
/// fixed by its key).
typealias EncodedAnswerCache<Key: Hashable & Sendable> = TTLCache<Key, ByteBuffer>

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

extension TTLCache where Key == SlotListingKey, Value == ByteBuffer {
    static func slotListings(ttl: Duration) -> SlotListingCache { SlotListingCache(ttl: ttl, capacity: 10_000) }

    /// Drops every listing of `partner` (a booking, a move, a cancellation, new availability or profile).
    func invalidate(partner: UUID) {
        invalidate { $0.partner == partner }
    }
}

/// A daily horoscope's key: at most 12 × 2 answers per day asked.
struct HoroscopeKey: Hashable, Sendable {
    var sign: String
    var day: CivilDate
    var language: Language
}
