import Foundation
import PlatformCore
import PlatformHTTP

/// The dashboard's trends (N5): one measure per day over a range, with the previous period's total.
extension AnalyticsAPI {
    func getTrend(_ input: Operations.GetTrend.Input) async throws -> Operations.GetTrend.Output {
        _ = try RequestScope.requireRole([.admin])
        let metric = input.query.metric
        guard let measure = TrendMeasure(rawValue: metric.rawValue) else {
            throw JSONBody.schemaViolation(["metric": "is not a measure the trends count"])
        }
        let app = input.query.app
        try measure.check(app: app?.rawValue)
        let period = try Self.trendPeriod(from: input.query.from, to: input.query.to)
        let stats = self.stats
        let key = "\(metric.rawValue)|\(app?.rawValue ?? "")|\(period.from)|\(period.to)"
        let trend = try await cache.trends.value(for: key) {
            let counts = try await stats.trend(measure, app: app?.rawValue, period: period)
            let points = period.series(counts.perDay)
            let total = points.reduce(0) { $0 + $1.count }
            let previous = period.previous
            return Components.Schemas.Trend(
                metric: metric, app: app, from: period.from.description, to: period.to.description,
                points: points.map { .init(day: $0.day, count: Int64($0.count)) }, total: Int64(total),
                previous: .init(from: previous.from.description, to: previous.to.description, total: Int64(counts.previousTotal)),
                changePercent: TrendPeriod.change(from: counts.previousTotal, to: total))
        }
        return .ok(.init(body: .json(trend)))
    }

    /// The range asked for, checked as the tables check theirs, with the trends' defaults and length limit.
    static func trendPeriod(from: String?, to: String?) throws -> TrendPeriod {
        let first = try from.map { try day($0, field: "from") }.flatMap(CivilDate.init(parsing:))
        let last = try to.map { try day($0, field: "to") }.flatMap(CivilDate.init(parsing:))
        do {
            return try TrendPeriod.resolve(from: first, to: last, today: CivilDate(clamping: Date()))
        } catch .fromAfterTo {
            throw APIError(.unprocessableContent, code: "bad_range", message: "from is after to")
        } catch .tooLong(let days) {
            throw APIError(
                .unprocessableContent, code: "range_too_long", message: "a trend covers at most \(TrendPeriod.maximumDays) days, not \(days)",
                details: ["to": "too far from from"])
        }
    }
}
