import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The survey's reasons as the admins list them (N4), per generation like every aggregate: built from the
/// `survey.explained` events, so a rebuild has them too.
enum SurveyReasons {
    static func insert(_ reasons: [SurveyReason], generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        guard !reasons.isEmpty else { return }
        // Arrays of optionals do not bind: no service is '' and no stars -1, made NULL again in SQL.
        let parts = reasons.map(\.part), services = reasons.map { $0.service ?? "" }, points = reasons.map(\.points)
        let stars = reasons.map { $0.stars ?? -1 }, whys = reasons.map(\.why), times = reasons.map(\.at)
        try await connection.tracedQuery(
            """
            INSERT INTO survey_reasons (generation, part, service, points, stars, why, explained_at)
            SELECT \(generation), p, nullif(s, ''), n, nullif(r, -1), w, t
            FROM unnest(\(parts)::text[], \(services)::text[], \(points)::int[], \(stars)::int[], \(whys)::text[], \(times)::timestamptz[])
                AS x(p, s, n, r, w, t)
            """, logger: logger)
    }

    /// How many of a generation's reasons `page` would page through.
    static func count(
        generation: Int, service: String?, range: StatsQueries.DayRange? = nil, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        let (from, to) = (range?.from, range?.to)
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*)::bigint FROM survey_reasons
            WHERE generation = \(generation)
                AND (\(service)::text IS NULL OR (\(service) = 'overall' AND part = 'overall') OR service = \(service))
                AND (\(from)::date IS NULL OR (explained_at AT TIME ZONE 'UTC')::date >= \(from)::date)
                AND (\(to)::date IS NULL OR (explained_at AT TIME ZONE 'UTC')::date <= \(to)::date)
            """, logger: logger)
        return try await rows.decode(Int.self).collectAll().first ?? 0
    }

    /// One page of a generation's reasons, newest first; `service` narrows to one service, or `overall` to the stay's
    /// ratings.
    static func page(
        generation: Int, service: String?, range: StatsQueries.DayRange? = nil, limit: Int, offset: Int, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> [SurveyReason] {
        let (from, to) = (range?.from, range?.to)
        let rows = try await connection.tracedQuery(
            """
            SELECT part, service, points, stars, why, explained_at FROM survey_reasons
            WHERE generation = \(generation)
                AND (\(service)::text IS NULL OR (\(service) = 'overall' AND part = 'overall') OR service = \(service))
                AND (\(from)::date IS NULL OR (explained_at AT TIME ZONE 'UTC')::date >= \(from)::date)
                AND (\(to)::date IS NULL OR (explained_at AT TIME ZONE 'UTC')::date <= \(to)::date)
            ORDER BY explained_at DESC, id DESC
            LIMIT \(limit) OFFSET \(offset)
            """, logger: logger)
        var reasons: [SurveyReason] = []
        for try await (part, service, points, stars, why, time) in rows.decode((String, String?, Int, Int?, String, Date).self) {
            reasons.append(SurveyReason(part: part, service: service, points: points, stars: stars, why: why, at: time))
        }
        return reasons
    }
}
