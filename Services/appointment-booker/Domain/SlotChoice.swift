import Foundation
import PlatformCore

/// Which slot a requested start names (B3): one in the future, within the horizon, and one of the partner's
/// computed slots in its zone. Booking and moving a booking choose the same way.
struct SlotChoice: Sendable {
    let slots: SlotCalculator
    let horizonDays: Int

    func slot(startingAt start: Date, of partner: Partner, now: Date) throws(BookingRefusal) -> SlotCalculator.Interval {
        guard start > now else { throw .slotInPast }
        guard start.timeIntervalSince(now) <= Double(horizonDays) * 86_400 else { throw .beyondHorizon }
        let begin = BookingTime.seconds(start)
        let slot = SlotCalculator.Interval(start: begin, end: begin + slots.slotSeconds)
        guard slots.isSlot(slot, availability: partner.availability, clock: partner.clock) else { throw .outsideAvailability }
        return slot
    }
}

/// Booking times as whole seconds since 1970: what slots are computed in.
enum BookingTime {
    static func seconds(_ date: Date) -> Int {
        let value = date.timeIntervalSince1970
        // Dates come from requests and rows: whole seconds, clamped far beyond CivilDate.years, never a trap.
        guard value.isFinite else { return 0 }
        return max(-1_000_000_000_000, min(1_000_000_000_000, value.rounded(.down).roundedClampedInt))
    }

    static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

extension Partner {
    /// The partner's zone; UTC for a zone this machine does not know (it was checked when it was set).
    var clock: ZonedClock { ZonedClock(identifier: timeZone) ?? .utc }
}
