import Foundation
import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// Queues a reminder for each appointment `lead` before it starts (B2), once however often the service restarts
/// or however many instances run (`ReminderQueue`). warning-detector's push path delivers it to the user's devices.
struct ReminderScheduler: Service {
    let client: PostgresClient
    let lead: Duration
    let tick: Duration
    let topic: String
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: tick, logger: logger, failure: "reminder run failed") {
            _ = try await runOnce()
        }
    }

    /// Queues the reminders due now (at most 500 a round); how many.
    func runOnce() async throws -> Int {
        let queued = try await ReminderQueue(client: client, topic: topic, logger: logger).queueDue(lead: lead)
        if queued > 0 { logger.info("appointment reminders queued", metadata: ["count": "\(queued)"]) }
        return queued
    }
}
