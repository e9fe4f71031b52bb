import Foundation

/// Turns wall-clock times in an IANA zone into instants and back, daylight-saving days included: a local time
/// can exist once, twice (the hour repeated when clocks go back) or not at all (the hour skipped when they go
/// forward). Times are whole seconds since 1970 (UTC) throughout; the zone's rules come from `TimeZone`, the day
/// arithmetic from `CivilDate`, so no `Calendar` is built or consulted per call.
public struct ZonedClock: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone) {
        self.zone = zone
    }

    /// Nil for a name that is not an IANA zone (or is an abbreviation such as `EST`, which is ambiguous).
    public init?(identifier: String) {
        guard identifier.contains("/") || identifier == "UTC", let zone = TimeZone(identifier: identifier) else { return nil }
        self.zone = zone
    }

    /// UTC: the fallback for a stored zone the system's zone data no longer knows.
    public static let utc = ZonedClock(zone: TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current)

    public func offset(at instant: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// Every instant showing `minute` (minutes after midnight, 0...1440) on `day`, earliest first: one, two
    /// (repeated hour) or none (skipped hour).
    public func instants(of day: CivilDate, minute: Int) -> [Int] {
        let wall = day.daysSinceEpoch * 86_400 + minute * 60
        // The offsets in force a day either side cover any single transition near the time.
        let candidates = Set([offset(at: wall - 86_400), offset(at: wall + 86_400)])
        return candidates.map { wall - $0 }.filter { offset(at: $0) == wall - $0 }.sorted()
    }

    /// The first moment the wall clock reaches `minute` on `day`: the earlier of a repeated time; for a skipped
    /// time, the moment of the jump (when the clock shows the first time after the gap).
    public func firstInstant(of day: CivilDate, minute: Int) -> Int {
        instants(of: day, minute: minute).first ?? transition(near: day, minute: minute)
    }

    /// The last moment the wall clock reaches `minute` on `day`: the later of a repeated time, the jump for a skipped one.
    public func lastInstant(of day: CivilDate, minute: Int) -> Int {
        instants(of: day, minute: minute).last ?? transition(near: day, minute: minute)
    }

    /// The instant the offset changes inside the gap that skips `minute`, found by bisection between the two
    /// readings of the wall time (an hour apart at most in practice, so a dozen steps).
    private func transition(near day: CivilDate, minute: Int) -> Int {
        let wall = day.daysSinceEpoch * 86_400 + minute * 60
        let before = offset(at: wall - 86_400)
        var low = wall - offset(at: wall + 86_400), high = wall - before
        if low > high { swap(&low, &high) }
        // Invariant: the offset at `low` is the earlier one, at `high` the later one.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(at: middle) == before { low = middle } else { high = middle }
        }
        return high
    }

    /// The day `instant` falls on in this zone and the second of that day the wall clock shows.
    public func wallClock(at instant: Int) -> (day: CivilDate, second: Int) {
        let local = instant + offset(at: instant)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (CivilDate(daysSinceEpoch: days), local - days * 86_400)
    }

    /// The day `instant` falls on in this zone.
    public func localDate(of instant: Int) -> CivilDate {
        wallClock(at: instant).day
    }

    /// ISO 8601 with this zone's offset at that instant: `2026-03-29T03:00:00+02:00`.
    public func format(_ instant: Int) -> String {
        let offset = offset(at: instant)
        let (day, seconds) = wallClock(at: instant)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(day)T\(CivilDate.padded(seconds / 3600, 2)):\(CivilDate.padded(seconds / 60 % 60, 2)):"
            + "\(CivilDate.padded(seconds % 60, 2))\(sign)\(CivilDate.padded(magnitude / 3600, 2)):\(CivilDate.padded(magnitude / 60 % 60, 2))"
    }
}
