import Logging
import PlatformPostgres
import PostgresNIO

/// The dashboard's trends (N5): one measure per day over a range and the previous period's total, read from the
/// current generation's daily tables in one snapshot.
extension StatsQueries {
    struct TrendCounts: Sendable {
        let perDay: [String: Int]
        let previousTotal: Int
    }

    func trend(_ measure: TrendMeasure, app: String?, period: TrendPeriod) async throws -> TrendCounts {
        try await snapshot { connection in
            let generation = try await Generations.current(on: connection, logger: logger)
            let previous = period.previous
            let appFilter = measure.isCountedPerApp ? " AND ($4::text IS NULL OR app = $4)" : " AND $4::text IS NULL"
            let sql = """
                SELECT to_char(day, 'YYYY-MM-DD'), sum(\(measure.column))::bigint FROM \(measure.table)
                WHERE generation = $1 AND day BETWEEN $2::date AND $3::date\(appFilter)
                GROUP BY day
                """
            var perDay: [String: Int] = [:]
            let rows = try await connection.tracedQuery(
                Self.query(sql, generation, period.from.description, period.to.description, app), logger: logger)
            for try await (day, count) in rows.decode((String, Int).self) { perDay[day] = count }
            let totalSQL = """
                SELECT coalesce(sum(\(measure.column)), 0)::bigint FROM \(measure.table)
                WHERE generation = $1 AND day BETWEEN $2::date AND $3::date\(appFilter)
                """
            let previousTotal =
                try await connection.tracedQuery(
                    Self.query(totalSQL, generation, previous.from.description, previous.to.description, app), logger: logger
                ).decode(Int.self).collectAll().first ?? 0
            return TrendCounts(perDay: perDay, previousTotal: previousTotal)
        }
    }

    private static func query(_ sql: String, _ generation: Int, _ from: String, _ to: String, _ app: String?) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(generation)
        bindings.append(from)
        bindings.append(to)
        bindings.append(app)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

/// A measure's daily table and its count column; only these, so no caller's text reaches the SQL.
extension TrendMeasure {
    fileprivate var table: String {
        switch self {
        case .downloads: "downloads_daily"
        case .featureUses: "feature_uses_daily"
        case .cityViews: "city_views_daily"
        }
    }

    fileprivate var column: String {
        switch self {
        case .downloads: "downloads"
        case .featureUses: "uses"
        case .cityViews: "views"
        }
    }
}
