import Foundation

/// The civil day an instant falls on: the zone's offset at that instant added to the instant, then days by
/// integer arithmetic (no Calendar per call, and no Double-to-Int conversion before the range is checked, since
/// the instant may come from a provider or an event).
extension CivilDate {
    /// The seconds since the epoch that `years` spans: 1970-01-01T00:00 to the last second of its last year.
    static let secondsInYears: ClosedRange<Double> = {
        let first = Double(days(year: years.lowerBound, month: 1, day: 1)) * 86_400
        let last = Double(days(year: years.upperBound + 1, month: 1, day: 1)) * 86_400 - 1
        return first...last
    }()

    /// The day of `date` in `zone`; nil when that day lies outside `years` or the instant is not finite.
    public init?(_ date: Date, in zone: TimeZone = .gmt) {
        guard let seconds = Self.localSeconds(date, in: zone), Self.secondsInYears.contains(seconds) else { return nil }
        self.init(daysSinceEpoch: (seconds / 86_400).rounded(.down).roundedClampedInt)
    }

    /// The day of `date` in `zone`, held to `years`: the first day for a non-finite instant or one before the
    /// range, the last for one after it. For data from outside (an event's time, a provider's timestamp) where a
    /// defined day matters more than a refusal.
    public init(clamping date: Date, in zone: TimeZone = .gmt) {
        let seconds = Self.localSeconds(date, in: zone) ?? Self.secondsInYears.lowerBound
        let held = min(max(seconds, Self.secondsInYears.lowerBound), Self.secondsInYears.upperBound)
        self.init(daysSinceEpoch: (held / 86_400).rounded(.down).roundedClampedInt)
    }

    /// Whole seconds since the epoch of `date`, held to `years` like `init(clamping:in:)`: an instant from
    /// outside never reaches an `Int` conversion out of range.
    public static func epochSeconds(clamping date: Date) -> Int {
        let seconds = date.timeIntervalSince1970.isFinite ? date.timeIntervalSince1970 : secondsInYears.lowerBound
        return min(max(seconds, secondsInYears.lowerBound), secondsInYears.upperBound).rounded(.down).roundedClampedInt
    }

    private static func localSeconds(_ date: Date, in zone: TimeZone) -> Double? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return nil }
        // secondsFromGMT(for:) is defined for any finite instant; outside the zone's rules it is the last known offset.
        return seconds + Double(zone.secondsFromGMT(for: date))
    }
}
