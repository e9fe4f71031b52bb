import Foundation

/// Payloads of the `appointments.bookings` topic (key: partner id), written by appointment-booker (B2).

/// `appointment.booked`, `appointment.changed` (moved) and `appointment.cancelled`: the booking as it is
/// after the change.
public struct AppointmentChanged: Codable, Sendable, Equatable {
    @LowercaseUUID public var bookingId: UUID
    @LowercaseUUID public var partnerId: UUID
    public var userId: String
    public var startsAt: Date
    public var endsAt: Date
    public var status: BookingStatus
    /// Who made the change.
    public var changedBy: BookingActor
    public var reason: String?

    public init(
        bookingId: UUID, partnerId: UUID, userId: String, startsAt: Date, endsAt: Date, status: BookingStatus, changedBy: BookingActor,
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
    @LowercaseUUID public var bookingId: UUID
    @LowercaseUUID public var partnerId: UUID
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

/// `horoscope.daily-due` (B5): the day's horoscope of a user who turned the daily notification on, at their local
/// time, once per local day. The texts in both languages, so warning-detector's push speaks each device's.
public struct HoroscopeDailyDue: Codable, Sendable, Equatable {
    public var userId: String
    public var sign: String
    /// The user's local day, `YYYY-MM-DD`.
    public var localDate: String
    public var titleEn: String
    public var titleTh: String
    public var textEn: String
    public var textTh: String

    public init(userId: String, sign: String, localDate: String, titleEn: String, titleTh: String, textEn: String, textTh: String) {
        self.userId = userId
        self.sign = sign
        self.localDate = localDate
        self.titleEn = titleEn
        self.titleTh = titleTh
        self.textEn = textEn
        self.textTh = textTh
    }
}
