import Foundation
import PlatformCore

/// Unit conversions and renderings the seed asks for (W3): compass points, miles, local AM/PM times.
enum Units {
    static let kilometresPerMile = 1.609344

    static func miles(fromKilometres kilometres: Double) -> Double {
        kilometres / kilometresPerMile
    }

    /// Rounds to `places` decimals, for values shown to people.
    static func rounded(_ value: Double, places: Int = 1) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private static let compassPoints = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The 16-point compass direction the wind comes from: 0° and 360° are N, 22.5° is NNE.
    static func compassPoint(degrees: Double) -> String {
        guard degrees.isFinite else { return "N" }  // a provider's NaN must not reach the Int conversion
        let normalised = degrees.truncatingRemainder(dividingBy: 360) + (degrees < 0 ? 360 : 0)
        return compassPoints[(normalised / 22.5).roundedClampedInt % 16]
    }
}

/// Renders instants in one city's time zone.
struct LocalClock: Sendable {
    let timeZone: TimeZone
    let calendar: Calendar

    init?(identifier: String) {
        guard let timeZone = TimeZone(identifier: identifier) else { return nil }
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// `06:42 AM`: the seed's `00:00 AM/PM` form (W3).
    func timeOfDay(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return Self.twelveHour(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
    }

    /// `4 PM`: the hour label of the hourly forecast (W4).
    func hourLabel(_ date: Date) -> String {
        let hour = calendar.component(.hour, from: date)
        return "\(hour % 12 == 0 ? 12 : hour % 12) \(hour < 12 ? "AM" : "PM")"
    }

    /// `Monday`.
    func dayName(_ date: Date) -> String {
        Self.dayNames[calendar.component(.weekday, from: date) - 1]
    }

    /// `yyyy-MM-dd` of the local day `date` falls on.
    func dayKey(_ date: Date) -> String {
        CivilDate(clamping: date, in: timeZone).description
    }

    /// The instant a local `yyyy-MM-dd` day starts.
    /// Calendar, not CivilDate, turns the day into an instant: where the day starts depends on the zone's rules.
    func startOfDay(_ key: String) -> Date? {
        guard let (year, month, day) = CivilDate(parsing: key)?.components else { return nil }
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// The instant of a local wall-clock time given as `yyyy-MM-dd` plus hour and minute.
    func instant(day: String, hour: Int, minute: Int) -> Date? {
        guard let start = startOfDay(day) else { return nil }
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: start)
    }

    func startOfNextDay(after date: Date) -> Date {
        calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: date)) ?? date.addingTimeInterval(86_400)
    }

    static func twelveHour(hour: Int, minute: Int) -> String {
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%02d:%02d %@", twelve, minute, hour < 12 ? "AM" : "PM")
    }

    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
