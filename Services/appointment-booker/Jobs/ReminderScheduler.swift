import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// Queues a reminder for each appointment `lead` before it starts (B2): the booking is marked and the
/// `appointment.reminder-due` event written to the outbox in one transaction, so each reminder is queued once
/// however often the service restarts or however many instances run (rows are claimed with SKIP LOCKED).
/// warning-detector's push path delivers it to the user's devices. A booking moved later gets a new reminder.
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
        let leadSeconds = Double(lead.components.seconds)
        return try await client.inTransaction(logger: logger) { connection -> Int in
            let rows = try await connection.tracedQuery(
                """
                WITH due AS (
                    SELECT id FROM bookings
                    WHERE status = 'booked' AND reminder_queued_at IS NULL AND starts_at > now()
                        AND starts_at <= now() + make_interval(secs => \(leadSeconds))
                    ORDER BY starts_at LIMIT 500 FOR UPDATE SKIP LOCKED
                )
                UPDATE bookings b SET reminder_queued_at = now() FROM due, partners p
                WHERE b.id = due.id AND p.id = b.partner_id
                RETURNING b.id, b.partner_id, p.name, b.user_id, b.starts_at
                """, logger: logger)
            var envelopes: [EventEnvelope<AppointmentReminderDue>] = []
            for try await (booking, partner, name, user, start) in rows.decode((UUID, UUID, String, String, Date).self) {
                envelopes.append(
                    EventEnvelope(
                        type: EventTypes.appointmentReminderDue, producer: "appointment-booker", key: AccountKey.of(partner),
                        payload: AppointmentReminderDue(bookingId: booking, partnerId: partner, partnerName: name, userId: user, startsAt: start)))
            }
            try await Outbox.enqueue(all: envelopes, toTopicNamed: topic, on: connection, logger: logger)
            if !envelopes.isEmpty { logger.info("appointment reminders queued", metadata: ["count": "\(envelopes.count)"]) }
            return envelopes.count
        }
    }
}
