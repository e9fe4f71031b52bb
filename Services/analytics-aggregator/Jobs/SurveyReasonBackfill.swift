import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// Publishes, once, the survey's reasons kept before reasons were published as `survey.explained` (N4): without
/// it the admins' list and every rebuild would miss them. A reason given since is published in the transaction
/// that keeps it, so after the first round there is nothing left to do; the round repeats, cheaply, in case a
/// row was restored from a backup. Each row is marked in the transaction that publishes it, so two instances
/// never publish one twice (the second waits on the first's row locks, then finds them marked).
struct SurveyReasonBackfill: Service {
    let client: PostgresClient
    let topic: String
    let startGate: StartGate
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "survey reason backfill failed") {
            let published = try await publishUnpublished()
            if published > 0 { logger.info("survey reasons published", metadata: ["count": "\(published)"]) }
        }
    }

    /// Publishes every kept reason not yet published; answers how many.
    func publishUnpublished() async throws -> Int {
        try await client.inTransaction(logger: logger) { connection in
            var events: [(user: String, event: SurveyExplained, at: Date)] = []
            let services = try await connection.tracedQuery(
                """
                UPDATE survey_services SET why_published = true WHERE why IS NOT NULL AND NOT why_published
                RETURNING user_id, service, points, why, submitted_at
                """, logger: logger)
            for try await (user, service, points, why, at) in services.decode((String, String, Int, String, Date).self) {
                events.append((user, SurveyExplained(part: "service", service: service, points: points, why: why), at))
            }
            let overall = try await connection.tracedQuery(
                """
                UPDATE survey_overall SET why_published = true WHERE why IS NOT NULL AND NOT why_published
                RETURNING user_id, points, stars, why, submitted_at
                """, logger: logger)
            for try await (user, points, stars, why, at) in overall.decode((String, Int, Int, String, Date).self) {
                events.append((user, SurveyExplained(part: "overall", points: points, stars: stars, why: why), at))
            }
            for (user, event, at) in events {
                // When the reason was given is not kept: the submission's time stands for it.
                try await Outbox.enqueue(
                    SurveyStore.explainedEnvelope(event, user: user, at: at), toTopicNamed: topic, on: connection, logger: logger)
            }
            return events.count
        }
    }
}
