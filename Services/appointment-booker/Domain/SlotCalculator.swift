import PlatformCore

/// The bookable slots of a partner (B3): each day's hours as real intervals in the partner's zone, cut into
/// slots of a fixed length from the start of each interval. A window runs from the first moment its start
/// time is reached to the last moment its end time is reached, so on the day clocks go back a window over
/// the repeated hour is an hour longer, and on the day they go forward a window over the skipped hour is an
/// hour shorter (a window wholly inside the skipped hour has no slot).
package struct SlotCalculator: Sendable {
    /// Half-open [start, end), seconds since 1970.
    package struct Interval: Hashable, Sendable {
        package var start: Int
        package var end: Int

        package init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
        package func overlaps(_ other: Interval) -> Bool { start < other.end && other.start < end }
    }

    package let slotSeconds: Int

    package init(slotMinutes: Int) {
        slotSeconds = slotMinutes * 60
    }

    /// The slots of `day`, earliest first.
    package func slots(on day: CivilDate, availability: Availability, clock: ZonedClock) -> [Interval] {
        hours(on: day, availability: availability, clock: clock).flatMap { hours in
            stride(from: hours.start, through: hours.end - slotSeconds, by: slotSeconds).map { Interval(start: $0, end: $0 + slotSeconds) }
        }
    }

    /// The slots of `count` days from `first`.
    package func slots(from first: CivilDate, days count: Int, availability: Availability, clock: ZonedClock) -> [Interval] {
        (0..<count).flatMap { slots(on: first.adding(days: $0), availability: availability, clock: clock) }
    }

    /// Whether `interval` is exactly one of the partner's slots (on the day it starts, in the partner's zone).
    package func isSlot(_ interval: Interval, availability: Availability, clock: ZonedClock) -> Bool {
        guard interval.end - interval.start == slotSeconds else { return false }
        let day = clock.localDate(of: interval.start)
        // A slot can start the evening before a day whose local date differs once clocks moved; look one day either side.
        return (-1...1).contains { slots(on: day.adding(days: $0), availability: availability, clock: clock).contains(interval) }
    }

    /// The day's open hours, merged and in order: weekly windows less `off` exceptions, plus `extra` ones.
    package func hours(on day: CivilDate, availability: Availability, clock: ZonedClock) -> [Interval] {
        func interval(_ start: LocalTime, _ end: LocalTime) -> Interval {
            let startInstant = clock.firstInstant(of: day, start)
            let endInstant =
                end == .endOfDay ? clock.firstInstant(of: day.adding(days: 1), LocalTime(minutes: 0) ?? end) : clock.lastInstant(of: day, end)
            return Interval(start: startInstant, end: endInstant)
        }
        let exceptions = availability.exceptions.filter { $0.date == day }
        var open = availability.weekly.filter { $0.weekday == day.weekday }.map { interval($0.start, $0.end) }
        for off in exceptions where off.kind == .off {
            guard let start = off.start, let end = off.end else {
                open = []
                continue
            }
            open = Self.subtract(interval(start, end), from: open)
        }
        open += exceptions.filter { $0.kind == .extra }.compactMap { extra in
            guard let start = extra.start, let end = extra.end else { return nil }
            return interval(start, end)
        }
        return Self.merge(open.filter { $0.start < $0.end })
    }

    package static func merge(_ intervals: [Interval]) -> [Interval] {
        var merged: [Interval] = []
        for next in intervals.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, next.start <= last.end {
                merged[merged.count - 1].end = max(last.end, next.end)
            } else {
                merged.append(next)
            }
        }
        return merged
    }

    package static func subtract(_ cut: Interval, from intervals: [Interval]) -> [Interval] {
        intervals.flatMap { interval -> [Interval] in
            guard interval.overlaps(cut) else { return [interval] }
            return [Interval(start: interval.start, end: cut.start), Interval(start: cut.end, end: interval.end)].filter { $0.start < $0.end }
        }
    }
}
