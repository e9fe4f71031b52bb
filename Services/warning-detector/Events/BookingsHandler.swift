import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Applies what warning-detector needs of `appointments.bookings` (B3, B5): a reminder due or a daily horoscope due
/// queues the pushes to the account's horoscope devices, each event once. The topic's other events (a booking
/// made, moved or cancelled) are appointment-booker's record, not this service's concern.
struct BookingsHandler: EventHandler {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.appointmentReminderDue:
            let reminder = try event.payload(as: AppointmentReminderDue.self)
            let queued = try await PushQueue.enqueue(reminder: reminder, on: connection, logger: logger)
            logger.info("appointment reminder queued", metadata: ["booking": "\(reminder.bookingId)", "notifications": "\(queued)"])
        case EventTypes.horoscopeDailyDue:
            let due = try event.payload(as: HoroscopeDailyDue.self)
            let queued = try await PushQueue.enqueue(dailyHoroscope: due, on: connection, logger: logger)
            logger.info("daily horoscope queued", metadata: ["day": "\(due.localDate)", "notifications": "\(queued)"])
        case EventTypes.appointmentBooked, EventTypes.appointmentChanged, EventTypes.appointmentCancelled:
            return
        default:
            throw EventDecodingError(reason: "\(event.header.type) does not belong on the bookings topic")
        }
    }
}
