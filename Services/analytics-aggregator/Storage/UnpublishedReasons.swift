import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The survey's reasons kept before reasons were published as `survey.explained` (N4). Each row is marked in the
/// transaction that publishes it, so two instances never publish one twice (the second waits on the first's row
/// locks, then finds them marked).
enum UnpublishedReasons {
    /// Publishes every kept reason not yet published; how many.
    static func publish(toTopicNamed topic: String, on client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.inTransaction(logger: logger) { connection in
            var events: [(event: SurveyExplained, at: Date)] = []
            let services = try await connection.tracedQuery(
                """
                UPDATE survey_services SET why_published = true WHERE why IS NOT NULL AND NOT why_published
                RETURNING service, points, why, submitted_at
                """, logger: logger)
            for try await (service, points, why, at) in services.decode((String, Int, String, Date).self) {
                events.append((SurveyExplained(part: .service, service: HotelService(rawValue: service), points: points, why: why), at))
            }
            let overall = try await connection.tracedQuery(
                """
                UPDATE survey_overall SET why_published = true WHERE why IS NOT NULL AND NOT why_published
                RETURNING points, stars, why, submitted_at
                """, logger: logger)
            for try await (points, stars, why, at) in overall.decode((Int, Int, String, Date).self) {
                events.append((SurveyExplained(part: .overall, points: points, stars: stars, why: why), at))
            }
            for (event, at) in events {
                // When the reason was given is not kept: the submission's time stands for it.
                try await Outbox.enqueue(
                    SurveyStore.explainedEnvelope(event, at: at), toTopicNamed: topic, on: connection, logger: logger)
            }
            return events.count
        }
    }
}
