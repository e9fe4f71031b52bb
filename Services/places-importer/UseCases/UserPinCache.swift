import PlatformCore

/// Each user's pins for a short while (`PLACES_PIN_CACHE_MS`), so a nearby list costs no database round trip.
/// A change made through this instance drops the user's entry at once (`invalidate`); one made through another
/// instance shows after at most one TTL. A load that raced with a change is not kept.
package typealias UserPinCache = TTLCache<String, UserPins>

extension TTLCache where Key == String, Value == UserPins {
    /// At most 100,000 users' pins; past that it drops the expired ones, then starts afresh.
    package static func pins(ttl: Duration) -> UserPinCache { UserPinCache(ttl: ttl, capacity: 100_000) }
}
