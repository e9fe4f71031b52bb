import PlatformCore
import Testing

@testable import AnalyticsAggregator

/// The trends' date ranges (N5): which days, the previous period, the change.
@Suite("analytics-aggregator: trend periods")
struct TrendPeriodTests {
    private func day(_ text: String) throws -> CivilDate { try #require(CivilDate(parsing: text)) }

    @Test("N5: no range is the 30 days up to today; one end makes 30 days from it")
    func defaults() throws {
        let today = try day("2026-03-10")
        let none = try TrendPeriod.resolve(from: nil, to: nil, today: today)
        let thirtyBack = try day("2026-02-09")
        #expect(none.from == thirtyBack)
        #expect(none.to == today)
        #expect(none.days == 30)
        let fromOnly = try TrendPeriod.resolve(from: try day("2026-01-01"), to: nil, today: today)
        #expect(fromOnly.to.description == "2026-01-30")
        let toOnly = try TrendPeriod.resolve(from: nil, to: try day("2026-01-30"), today: today)
        #expect(toOnly.from.description == "2026-01-01")
    }

    @Test("N5: the previous period is as many days, ending the day before, across a leap day")
    func previousPeriod() throws {
        let period = try TrendPeriod.resolve(from: try day("2024-03-01"), to: try day("2024-03-07"), today: try day("2024-03-07"))
        #expect(period.previous.from.description == "2024-02-23")
        #expect(period.previous.to.description == "2024-02-29")
        #expect(period.previous.days == 7)
    }

    @Test("N5: a reversed or too long range is refused")
    func refused() throws {
        let today = try day("2026-03-10")
        #expect(throws: TrendPeriod.Problem.fromAfterTo) {
            try TrendPeriod.resolve(from: try day("2026-03-02"), to: try day("2026-03-01"), today: today)
        }
        #expect(throws: TrendPeriod.Problem.tooLong(days: 3_661)) {
            try TrendPeriod.resolve(from: try day("2016-01-01"), to: try day("2016-01-01").adding(days: 3_660), today: today)
        }
        let longest = try TrendPeriod.resolve(from: try day("2016-01-01"), to: try day("2016-01-01").adding(days: 3_659), today: today)
        #expect(longest.days == TrendPeriod.maximumDays)
    }

    @Test("N5: every day of the range has a point, zero when nothing was counted")
    func series() throws {
        let period = try TrendPeriod.resolve(from: try day("2025-12-30"), to: try day("2026-01-02"), today: try day("2026-01-02"))
        let points = period.series(["2025-12-31": 4, "2026-01-02": 1, "2026-01-05": 9])
        #expect(points.map(\.day) == ["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"])
        #expect(points.map(\.count) == [0, 4, 0, 1])
    }

    @Test("N5: the change against the previous period, none from zero")
    func change() {
        #expect(TrendPeriod.change(from: 40, to: 50) == 25.0)
        #expect(TrendPeriod.change(from: 3, to: 2) == -33.3)
        #expect(TrendPeriod.change(from: 7, to: 7) == 0)
        #expect(TrendPeriod.change(from: 0, to: 5) == nil)
    }
}
