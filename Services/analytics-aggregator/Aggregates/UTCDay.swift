import Foundation
import Shared

/// The UTC day of an event's time as `YYYY-MM-DD`, by integer arithmetic (the consumer names a day per
/// event; a formatter per call was the slow way). Days are counted in UTC so that every instance, and a
/// rebuild on another machine, puts an event on the same day.
enum UTCDay {
    static func of(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        // Event times are checked to lie in 1970...2200 before they get here; clamp anyway, never trap.
        let clamped = seconds.isFinite ? min(max(seconds, 0), 7_258_118_400) : 0
        let days = (clamped / 86_400).rounded(.down).roundedClampedInt
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
