import Logging
import PlatformPostgres
import PostgresNIO

/// The features and cities tables of a date range (N5), from the daily tables: ranked by the uses or views on
/// the range's days. A window ranks the whole range (the all-days tables rank on an index instead); the
/// dashboard reads these pages through the answer cache.
extension StatsQueries {
    /// Days `from...to` (UTC), either end open.
    struct DayRange: Sendable, Hashable {
        let from: String?
        let to: String?

        /// A range only when one end is given: no ends means all days, which the totals answer.
        init?(from: String?, to: String?) {
            guard from != nil || to != nil else { return nil }
            (self.from, self.to) = (from, to)
        }

        var cacheKey: String { "\(from ?? "")..\(to ?? "")" }
    }

    func features(app: String?, prefix: String?, range: DayRange, limit: Int, offset: Int) async throws -> (items: [Schemas.Feature], total: Int) {
        try await snapshot { connection in
            let generation = try await Generations.current(on: connection, logger: logger)
            let pattern = prefix.map { Self.likePrefix($0.lowercased()) }
            // Ranked before the prefix narrows the list, so a feature keeps its place in the range, as the
            // all-days table keeps its overall rank.
            let rows = try await connection.tracedQuery(
                """
                WITH ranged AS (
                    SELECT app, feature, sum(uses)::bigint AS uses FROM feature_uses_daily
                    WHERE generation = \(generation) AND (\(app)::text IS NULL OR app = \(app))
                      AND (\(range.from)::date IS NULL OR day >= \(range.from)::date) AND (\(range.to)::date IS NULL OR day <= \(range.to)::date)
                    GROUP BY app, feature
                ), ranked AS (SELECT rank() OVER (ORDER BY uses DESC)::bigint AS place, app, feature, uses FROM ranged)
                SELECT r.place, r.app, r.feature, coalesce(f.users, 0)::bigint, f.sketch IS NOT NULL, r.uses, count(*) OVER ()::bigint
                FROM ranked r LEFT JOIN features f ON f.generation = \(generation) AND f.app = r.app AND f.feature = r.feature
                WHERE \(pattern)::text IS NULL OR lower(r.feature) LIKE \(pattern)
                ORDER BY r.uses DESC, r.app, r.feature LIMIT \(limit) OFFSET \(offset)
                """, logger: logger)
            var items: [Schemas.Feature] = []
            var total = 0
            for try await (rank, app, feature, users, approximate, uses, all) in rows.decode((Int, String, String, Int, Bool, Int, Int).self) {
                guard let app = Schemas.App(rawValue: app) else { continue }
                items.append(
                    .init(
                        rank: Int64(rank), app: app, name: feature, users: Int64(users), counting: approximate ? .approximate : .exact,
                        uses: Int64(uses)))
                total = all
            }
            if items.isEmpty, offset > 0 {
                total =
                    try await connection.tracedQuery(
                        """
                        SELECT count(DISTINCT (app, feature))::bigint FROM feature_uses_daily
                        WHERE generation = \(generation) AND (\(app)::text IS NULL OR app = \(app))
                          AND (\(range.from)::date IS NULL OR day >= \(range.from)::date) AND (\(range.to)::date IS NULL OR day <= \(range.to)::date)
                          AND (\(pattern)::text IS NULL OR lower(feature) LIKE \(pattern))
                        """, logger: logger
                    ).decode(Int.self).collectAll().first ?? 0
            }
            return (items, total)
        }
    }

    func locations(range: DayRange, limit: Int, offset: Int) async throws -> (items: [Schemas.Location], total: Int) {
        try await snapshot { connection in
            let generation = try await Generations.current(on: connection, logger: logger)
            let rows = try await connection.tracedQuery(
                """
                WITH ranged AS (
                    SELECT city_id, sum(views)::bigint AS views FROM city_views_daily
                    WHERE generation = \(generation)
                      AND (\(range.from)::date IS NULL OR day >= \(range.from)::date) AND (\(range.to)::date IS NULL OR day <= \(range.to)::date)
                    GROUP BY city_id
                )
                SELECT rank() OVER (ORDER BY r.views DESC)::bigint, r.city_id, coalesce(n.name, v.name, 'city ' || r.city_id), r.views,
                       count(*) OVER ()::bigint
                FROM ranged r LEFT JOIN city_names n ON n.city_id = r.city_id
                    LEFT JOIN city_views v ON v.generation = \(generation) AND v.city_id = r.city_id
                ORDER BY r.views DESC, r.city_id LIMIT \(limit) OFFSET \(offset)
                """, logger: logger)
            var items: [Schemas.Location] = []
            var total = 0
            for try await (rank, city, name, views, all) in rows.decode((Int, Int, String, Int, Int).self) {
                items.append(.init(rank: Int64(rank), cityId: Int64(city), name: name, views: Int64(views)))
                total = all
            }
            if items.isEmpty, offset > 0 {
                total =
                    try await connection.tracedQuery(
                        """
                        SELECT count(DISTINCT city_id)::bigint FROM city_views_daily
                        WHERE generation = \(generation)
                          AND (\(range.from)::date IS NULL OR day >= \(range.from)::date) AND (\(range.to)::date IS NULL OR day <= \(range.to)::date)
                        """, logger: logger
                    ).decode(Int.self).collectAll().first ?? 0
            }
            return (items, total)
        }
    }
}
