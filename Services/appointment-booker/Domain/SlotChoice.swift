import Foundation
import PlatformCore

/// Which slot a requested start names (B3): one in the future, within the horizon, and one of the partner's
/// computed slots in its zone. Booking and moving a booking choose the same way.
package struct SlotChoice: Sendable {
    package let slots: SlotCalculator
    package let horizonDays: Int

    package init(slots: SlotCalculator, horizonDays: Int) {
        self.slots = slots
        self.horizonDays = horizonDays
    }

    package func slot(startingAt start: Date, of partner: Partner, now: Date) throws(BookingRefusal) -> SlotCalculator.Interval {
        guard start > now else { throw .slotInPast }
        guard start.timeIntervalSince(now) <= Double(horizonDays) * 86_400 else { throw .beyondHorizon }
        let begin = BookingTime.seconds(start)
        let slot = SlotCalculator.Interval(start: begin, end: begin + slots.slotSeconds)
        guard slots.isSlot(slot, availability: partner.availability, clock: partner.clock) else { throw .outsideAvailability }
        return slot
    }

    /// The slots offered from `first` for `days` days: computed in the partner's zone, starting after `after` (now,
    /// or later when the answer is kept for a while) and within the horizon.
    package func offered(from first: CivilDate, days: Int, of partner: Partner, after: Int, now: Int) -> [SlotCalculator.Interval] {
        slots.slots(from: first, days: days, availability: partner.availability, clock: partner.clock)
            .filter { $0.start > after && $0.start <= now + horizonDays * 86_400 }
    }

    /// Those of `offered` that no live booking overlaps.
    package static func free(_ offered: [SlotCalculator.Interval], taken: [SlotCalculator.Interval]) -> [SlotCalculator.Interval] {
        offered.filter { slot in !taken.contains { $0.overlaps(slot) } }
    }
}

/// Booking times as whole seconds since 1970: what slots are computed in.
package enum BookingTime {
    package static func seconds(_ date: Date) -> Int {
        let value = date.timeIntervalSince1970
        // Dates come from requests and rows: whole seconds, clamped far beyond CivilDate.years, never a trap.
        guard value.isFinite else { return 0 }
        return max(-1_000_000_000_000, min(1_000_000_000_000, value.rounded(.down).roundedClampedInt))
    }

    package static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

extension Partner {
    /// The partner's zone; UTC for a zone this machine does not know (it was checked when it was set).
    package var clock: ZonedClock { ZonedClock(identifier: timeZone) ?? .utc }
}
