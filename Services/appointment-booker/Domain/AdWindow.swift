import Foundation
import PlatformCore

/// An ad's window (B6): it ends after it starts, runs a year at most, and lies within the years bookings know.
package enum AdWindow {
    /// Each field that breaks the rule, with why; empty when the window is allowed.
    package static func problems(startsAt: Date, endsAt: Date) -> [String: String] {
        var problems: [String: String] = [:]
        for (field, date) in [("startsAt", startsAt), ("endsAt", endsAt)] where CivilDate(date) == nil {
            problems[field] = "must be in the years \(CivilDate.years.lowerBound)...\(CivilDate.years.upperBound)"
        }
        if endsAt <= startsAt {
            problems["endsAt"] = "must be after startsAt"
        } else if endsAt.timeIntervalSince(startsAt) > 366 * 86_400 {
            problems["endsAt"] = "an ad runs a year at most"
        }
        return problems
    }
}
