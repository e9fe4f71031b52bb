import Foundation
import PlatformCore

/// Renders instants in one city's time zone, and reads the provider's local times as instants, through the
/// platform's `ZonedClock` (a skipped local time is the moment of the jump, a repeated one its first reading).
package struct LocalClock: Sendable {
    package let zoned: ZonedClock

    package var timeZone: TimeZone { zoned.zone }

    /// Any zone the system knows: the catalogue names each city's.
    package init?(identifier: String) {
        guard let timeZone = TimeZone(identifier: identifier) else { return nil }
        zoned = ZonedClock(zone: timeZone)
    }

    private func wallClock(_ date: Date) -> (day: CivilDate, second: Int) {
        zoned.wallClock(at: CivilDate.epochSeconds(clamping: date))
    }

    /// `06:42 AM`: the seed's `00:00 AM/PM` form (W3).
    package func timeOfDay(_ date: Date) -> String {
        let second = wallClock(date).second
        return Self.twelveHour(hour: second / 3_600, minute: second / 60 % 60)
    }

    /// The local hour, 0-23.
    package func hour(_ date: Date) -> Int { wallClock(date).second / 3_600 }

    /// The local minute, 0-59.
    package func minute(_ date: Date) -> Int { wallClock(date).second / 60 % 60 }

    /// `4 PM`: the hour label of the hourly forecast (W4).
    package func hourLabel(_ date: Date) -> String {
        let hour = hour(date)
        return "\(hour % 12 == 0 ? 12 : hour % 12) \(hour < 12 ? "AM" : "PM")"
    }

    /// `Monday`.
    package func dayName(_ date: Date) -> String {
        Self.dayNames[wallClock(date).day.weekday % 7]
    }

    /// `yyyy-MM-dd` of the local day `date` falls on.
    package func dayKey(_ date: Date) -> String {
        wallClock(date).day.description
    }

    /// The instant a local `yyyy-MM-dd` day starts.
    package func startOfDay(_ key: String) -> Date? {
        instant(day: key, hour: 0, minute: 0)
    }

    /// The instant of a local wall-clock time given as `yyyy-MM-dd` plus hour and minute; nil for a day that
    /// does not exist or a time outside 00:00-23:59.
    package func instant(day: String, hour: Int, minute: Int) -> Date? {
        guard let day = CivilDate(parsing: day), (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(zoned.firstInstant(of: day, minute: hour * 60 + minute)))
    }

    package func startOfNextDay(after date: Date) -> Date {
        Date(timeIntervalSince1970: TimeInterval(zoned.firstInstant(of: wallClock(date).day.adding(days: 1), minute: 0)))
    }

    package static func twelveHour(hour: Int, minute: Int) -> String {
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(CivilDate.padded(twelve, 2)):\(CivilDate.padded(minute, 2)) \(hour < 12 ? "AM" : "PM")"
    }

    /// By ISO weekday modulo 7: Sunday first.
    package static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
