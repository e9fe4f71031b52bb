import Foundation
import PlatformCore

/// Turns a partner's wall-clock times into instants in their IANA zone, daylight-saving days included. A local
/// time can exist once, twice (the hour repeated when clocks go back) or not at all (the hour skipped when
/// they go forward). Times are whole seconds since 1970 (UTC) throughout.
struct ZonedClock: Sendable {
    let zone: TimeZone

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// Nil for a name that is not an IANA zone (or is an abbreviation such as `EST`, which is ambiguous).
    init?(identifier: String) {
        guard identifier.contains("/") || identifier == "UTC", let zone = TimeZone(identifier: identifier) else { return nil }
        self.zone = zone
    }

    /// UTC: the fallback for a stored zone the system's zone data no longer knows.
    static let utc = ZonedClock(zone: TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current)

    func offset(at instant: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// Every instant showing `time` on `day`, earliest first: one, two (repeated hour) or none (skipped hour).
    func instants(of day: CivilDate, _ time: LocalTime) -> [Int] {
        let wall = day.daysSinceEpoch * 86_400 + time.minutes * 60
        // The offsets in force a day either side cover any single transition near the time.
        let candidates = Set([offset(at: wall - 86_400), offset(at: wall + 86_400)])
        return candidates.map { wall - $0 }.filter { offset(at: $0) == wall - $0 }.sorted()
    }

    /// The first moment the wall clock reaches `time` on `day`: the earlier of a repeated time; for a skipped
    /// time, the moment of the jump (when the clock shows the first time after the gap).
    func firstInstant(of day: CivilDate, _ time: LocalTime) -> Int {
        instants(of: day, time).first ?? transition(near: day, time)
    }

    /// The last moment the wall clock reaches `time` on `day`: the later of a repeated time, the jump for a skipped one.
    func lastInstant(of day: CivilDate, _ time: LocalTime) -> Int {
        instants(of: day, time).last ?? transition(near: day, time)
    }

    /// The instant the offset changes inside the gap that skips `time`, found by bisection between the two
    /// readings of the wall time (an hour apart at most in practice, so a dozen steps).
    private func transition(near day: CivilDate, _ time: LocalTime) -> Int {
        let wall = day.daysSinceEpoch * 86_400 + time.minutes * 60
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

    /// The day `instant` falls on in this zone.
    func localDate(of instant: Int) -> CivilDate {
        let local = instant + offset(at: instant)
        return CivilDate(daysSinceEpoch: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// ISO 8601 with this zone's offset at that instant: `2026-03-29T03:00:00+02:00`.
    func format(_ instant: Int) -> String {
        let offset = offset(at: instant)
        let local = instant + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - days * 86_400
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(CivilDate(daysSinceEpoch: days))T\(CivilDate.padded(seconds / 3600, 2)):\(CivilDate.padded(seconds / 60 % 60, 2)):"
            + "\(CivilDate.padded(seconds % 60, 2))\(sign)\(CivilDate.padded(magnitude / 3600, 2)):\(CivilDate.padded(magnitude / 60 % 60, 2))"
    }
}
