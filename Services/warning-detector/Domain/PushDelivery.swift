/// What a queued push is (A5, B2, B5), as the delivery log stores it.
package enum DeliveryKind: String, Sendable, CaseIterable {
    case warning
    case dailyForecast = "daily-forecast"
    case appointmentReminder = "appointment-reminder"
    case dailyHoroscope = "daily-horoscope"
}

/// Where a queued push stands (A5): pending until it is sent or fails, or dropped with a token APNs no longer
/// knows.
package enum DeliveryStatus: String, Sendable, CaseIterable {
    case pending, sent, failed
    case tokenRemoved = "token-removed"
}
