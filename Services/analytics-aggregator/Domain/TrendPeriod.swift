import PlatformCore

/// A date range of the dashboard's trends (N5) and the period it is compared with: the as many days just
/// before it, as Plausible and PostHog compare. Pure; the days are UTC days, as the aggregates count them.
package struct TrendPeriod: Equatable, Sendable {
    /// The longest range a trend answers: ten years of days is 3,653 points, still a small answer.
    package static let maximumDays = 3_660
    /// The range when none is asked for: the last 30 days, today included.
    package static let defaultDays = 30

    package let from: CivilDate
    package let to: CivilDate

    package init(from: CivilDate, to: CivilDate) {
        self.from = from
        self.to = to
    }

    package enum Problem: Error, Equatable {
        case fromAfterTo
        case tooLong(days: Int)
    }

    /// The range asked for: both ends, one end (the other 30 days away) or none (the 30 days up to `today`).
    package static func resolve(from: CivilDate?, to: CivilDate?, today: CivilDate) throws(Problem) -> TrendPeriod {
        let last = to ?? from.map { $0.adding(days: defaultDays - 1) } ?? today
        let first = from ?? last.adding(days: -(defaultDays - 1))
        guard first <= last else { throw .fromAfterTo }
        let period = TrendPeriod(from: first, to: last)
        guard period.days <= maximumDays else { throw .tooLong(days: period.days) }
        return period
    }

    package var days: Int { to.daysSinceEpoch - from.daysSinceEpoch + 1 }

    /// The as many days that end the day before this range starts.
    package var previous: TrendPeriod { TrendPeriod(from: from.adding(days: -days), to: from.adding(days: -1)) }

    /// Every day of the range, in order, with its count (0 for a day with none).
    package func series(_ counts: [String: Int]) -> [(day: String, count: Int)] {
        (0..<days).map { offset in
            let day = from.adding(days: offset).description
            return (day, counts[day] ?? 0)
        }
    }

    /// The change from the previous period's total in percent, one decimal; none when the previous had nothing
    /// (a change from zero has no percentage).
    package static func change(from previous: Int, to current: Int) -> Double? {
        guard previous > 0 else { return nil }
        return (Double(current - previous) * 1000 / Double(previous)).rounded() / 10
    }
}
