import Logging
import PlatformPostgres
import PostgresNIO

/// The poll's answers and the survey's submissions per day (N5), beside their totals, so the dashboard's poll and
/// survey tables follow a date range. One statement per table per batch, keys sorted as the other writes.
enum DailyPollAndSurveyWriter {
    static func write(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        if !delta.pollByDay.isEmpty {
            let rows = delta.pollByDay.sorted { $0.key < $1.key }
            let days = rows.map(\.key.day), questions = rows.map(\.key.key), yes = rows.map(\.value.yes), no = rows.map(\.value.no)
            try await connection.tracedQuery(
                """
                INSERT INTO poll_results_daily (generation, day, question, yes, no)
                SELECT \(generation), d, q, y, n FROM unnest(\(days)::date[], \(questions)::text[], \(yes)::bigint[], \(no)::bigint[]) AS t(d, q, y, n)
                ON CONFLICT (generation, day, question) DO UPDATE
                    SET yes = poll_results_daily.yes + excluded.yes, no = poll_results_daily.no + excluded.no
                """, logger: logger)
        }
        if !delta.servicesByDay.isEmpty {
            let rows = delta.servicesByDay.sorted { $0.key < $1.key }
            let days = rows.map(\.key.day), services = rows.map(\.key.key), submissions = rows.map(\.value.submissions)
            let points = rows.map(\.value.points), below = rows.map(\.value.belowGood)
            try await connection.tracedQuery(
                """
                INSERT INTO survey_service_daily (generation, day, service, submissions, points, below_good)
                SELECT \(generation), d, s, n, p, b
                FROM unnest(\(days)::date[], \(services)::text[], \(submissions)::bigint[], \(points)::bigint[], \(below)::bigint[]) AS t(d, s, n, p, b)
                ON CONFLICT (generation, day, service) DO UPDATE SET submissions = survey_service_daily.submissions + excluded.submissions,
                    points = survey_service_daily.points + excluded.points, below_good = survey_service_daily.below_good + excluded.below_good
                """, logger: logger)
        }
        if !delta.overallByDay.isEmpty {
            let rows = delta.overallByDay.sorted { $0.key < $1.key }
            let days = rows.map(\.key.day), stars = rows.map { Int($0.key.key) ?? 0 }, counts = rows.map(\.value)
            try await connection.tracedQuery(
                """
                INSERT INTO survey_overall_daily (generation, day, stars, submissions)
                SELECT \(generation), d, s, n FROM unnest(\(days)::date[], \(stars)::integer[], \(counts)::bigint[]) AS t(d, s, n)
                ON CONFLICT (generation, day, stars) DO UPDATE SET submissions = survey_overall_daily.submissions + excluded.submissions
                """, logger: logger)
        }
    }
}
