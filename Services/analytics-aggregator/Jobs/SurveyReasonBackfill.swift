import Foundation
import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// Publishes, once, the survey's reasons kept before reasons were published as `survey.explained` (N4): without
/// it the admins' list and every rebuild would miss them. A reason given since is published in the transaction
/// that keeps it, so after the first round there is nothing left to do; the round repeats, cheaply, in case a
/// row was restored from a backup (`UnpublishedReasons`).
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
        try await UnpublishedReasons.publish(toTopicNamed: topic, on: client, logger: logger)
    }
}
