import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The appointments whose reminder is due (B2): each booking marked and its `appointment.reminder-due` event
/// written to the outbox in one transaction; rows are claimed with SKIP LOCKED, so instances running together
/// never queue one twice. A booking moved later is unmarked by the move, so it gets a new reminder.
struct ReminderQueue: Sendable {
    let client: PostgresClient
    let topic: String
    let logger: Logger

    /// Queues the reminders of bookings starting within `lead` (at most `limit`); how many.
    func queueDue(lead: Duration, limit: Int = 500) async throws -> Int {
        let leadSeconds = Double(lead.components.seconds)
        return try await client.inTransaction(logger: logger) { connection -> Int in
            let rows = try await connection.tracedQuery(
                """
                WITH due AS (
                    SELECT id FROM bookings
                    WHERE status = 'booked' AND reminder_queued_at IS NULL AND starts_at > now()
                        AND starts_at <= now() + make_interval(secs => \(leadSeconds))
                    ORDER BY starts_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
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
            return envelopes.count
        }
    }
}
