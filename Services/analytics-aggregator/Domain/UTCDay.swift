import Foundation
import PlatformCore

/// The UTC day of an event's time as `YYYY-MM-DD`, by integer arithmetic (the consumer names a day per
/// event; a formatter per call was the slow way). Days are counted in UTC so that every instance, and a
/// rebuild on another machine, puts an event on the same day.
enum UTCDay {
    static func of(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        // Event times are checked to lie in 1970...2200 before they get here; clamp anyway, never trap.
        let clamped = seconds.isFinite ? min(max(seconds, 0), 7_258_118_400) : 0
        let days = (clamped / 86_400).rounded(.down).roundedClampedInt
        return CivilDate(daysSinceEpoch: days).description
    }
}
