import Foundation

/// Payloads of the `appointments.bookings` topic (key: partner id), written by appointment-booker (B2).

/// `appointment.booked`, `appointment.changed` (moved) and `appointment.cancelled`: the booking as it is
/// after the change.
public struct AppointmentChanged: Codable, Sendable, Equatable {
    public var bookingId: UUID
    public var partnerId: UUID
    public var userId: String
    public var startsAt: Date
    public var endsAt: Date
    /// `booked` or `cancelled`.
    public var status: String
    /// Who made the change: `user`, `partner`, `admin` or `system` (a ban).
    public var changedBy: String
    public var reason: String?

    public init(
        bookingId: UUID, partnerId: UUID, userId: String, startsAt: Date, endsAt: Date, status: String, changedBy: String,
        reason: String? = nil
    ) {
        self.bookingId = bookingId
        self.partnerId = partnerId
        self.userId = userId
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.status = status
        self.changedBy = changedBy
        self.reason = reason
    }
}

/// `appointment.reminder-due`: the user should be reminded of an appointment; the push path delivers it
/// (warning-detector queues a notification for the user's devices).
public struct AppointmentReminderDue: Codable, Sendable, Equatable {
    public var bookingId: UUID
    public var partnerId: UUID
    public var partnerName: String
    public var userId: String
    public var startsAt: Date

    public init(bookingId: UUID, partnerId: UUID, partnerName: String, userId: String, startsAt: Date) {
        self.bookingId = bookingId
        self.partnerId = partnerId
        self.partnerName = partnerName
        self.userId = userId
        self.startsAt = startsAt
    }
}
