import Foundation
import Logging
import PostgresNIO
import Shared

/// Applies `weather.forecasts`, `weather.user-cities` and the reminders of `appointments.bookings` events, each once, inside the idempotent consumer's
/// transaction: a forecast updates the city's warnings (A1, A2) and queues a notification per new warning
/// for the devices that want it (A5); favourite changes keep the audience current (A4). A payload that does
/// not decode or carries values no weather has is permanent and goes to the dead-letter topic.
struct ForecastsFavouritesAppointmentsHandler: EventHandler {
    let detector: WarningDetector
    let warnings: WarningStore

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    /// A batch keeps only the newest forecast of each city: an older one would be superseded within the same
    /// transaction, and applying it first could issue and at once cancel a warning (and push it). The kept
    /// forecasts are applied together with a fixed number of statements; favourite changes apply in order. A bad
    /// event fails the batch, and the consumer then applies its events one by one.
    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        let forecasts = try await Self.decodeForecasts(events)
        var newest: [Int: ForecastUpdated] = [:]
        var newestEvent: [Int: ReceivedEvent] = [:]
        var order: [Int] = []
        for (index, event) in events.enumerated() {
            switch event.header.type {
            case EventTypes.forecastUpdated:
                guard let forecast = forecasts[index] else { continue }
                if let seen = newest[forecast.city.id] {
                    if seen.fetchedAt > forecast.fetchedAt { continue }
                } else {
                    order.append(forecast.city.id)
                }
                newest[forecast.city.id] = forecast
                newestEvent[forecast.city.id] = event
            case EventTypes.favouriteAdded:
                try await EventTracing.handling(event) {
                    try await UserStore.addFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
                }
            case EventTypes.favouriteRemoved:
                try await EventTracing.handling(event) {
                    try await UserStore.removeFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
                }
            case EventTypes.appointmentReminderDue:
                try await EventTracing.handling(event) {
                    let reminder = try event.payload(as: AppointmentReminderDue.self)
                    let queued = try await PushQueue.enqueue(reminder: reminder, on: connection, logger: logger)
                    logger.info("appointment reminder queued", metadata: ["booking": "\(reminder.bookingId)", "notifications": "\(queued)"])
                }
            case EventTypes.horoscopeDailyDue:
                try await EventTracing.handling(event) {
                    let due = try event.payload(as: HoroscopeDailyDue.self)
                    let queued = try await PushQueue.enqueue(dailyHoroscope: due, on: connection, logger: logger)
                    logger.info("daily horoscope queued", metadata: ["day": "\(due.localDate)", "notifications": "\(queued)"])
                }
            case EventTypes.appointmentBooked, EventTypes.appointmentChanged, EventTypes.appointmentCancelled:
                continue  // The bookings topic's other events are not this service's concern.
            default:
                throw EventDecodingError(reason: "warning-detector does not handle \(event.header.type) events")
            }
        }
        // Each kept forecast's event gets a consumer span of its trace, ended when the forecasts are applied; a
        // warning's events and push deliveries continue the trace of the forecast that issued it. (A forecast
        // superseded by a newer one of its city in the same batch is not applied and gets no span.)
        let kept = order.compactMap { newestEvent[$0] }
        try await EventTracing.handlingTogether(kept) { byEvent in
            let traceParents = newestEvent.compactMapValues { byEvent[$0.header.id] }
            try await apply(order.compactMap { newest[$0] }, traceParents: traceParents, connection: connection, logger: logger)
        }
    }

    /// Decodes and validates the batch's forecasts on all cores: decoding a forecast's JSON (48 hours of values)
    /// was nearly two thirds of the service's CPU in a profile of the consumer, and a batch comes from one
    /// partition, so without this it used one core. Positions without a forecast are nil.
    static func decodeForecasts(_ events: [ReceivedEvent]) async throws -> [ForecastUpdated?] {
        let chunk = 64
        return try await withThrowingTaskGroup(of: (Int, [ForecastUpdated?]).self) { group in
            for start in stride(from: 0, to: events.count, by: chunk) {
                let slice = Array(events[start..<min(events.count, start + chunk)])
                group.addTask {
                    (start, try slice.map { event in
                        guard event.header.type == EventTypes.forecastUpdated else { return nil }
                        let forecast = try event.payload(as: ForecastUpdated.self)
                        try ForecastValidation.validate(forecast)
                        return forecast
                    })
                }
            }
            var decoded = [ForecastUpdated?](repeating: nil, count: events.count)
            for try await (start, values) in group {
                decoded.replaceSubrange(start..<(start + values.count), with: values)
            }
            return decoded
        }
    }

    private func apply(
        _ forecasts: [ForecastUpdated], traceParents: [Int: String], connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !forecasts.isEmpty else { return }
        let stored = try await ForecastStore.record(forecasts, on: connection, logger: logger)
        let current = forecasts.filter { stored.contains($0.city.id) }
        if current.count < forecasts.count {
            logger.debug("older forecasts ignored", metadata: ["count": "\(forecasts.count - current.count)"])
        }
        let changes = try await warnings.apply(
            current.map { WarningStore.Detections(forecast: $0, detected: detector.detect($0), traceParent: traceParents[$0.city.id]) },
            on: connection)
        // A warning that ended before it was detected (a late or replayed forecast) is stored, never pushed (A5).
        let now = Date()
        let queued = try await PushQueue.enqueue(
            warnings: changes.issued.filter { $0.ends > now }, traceParents: traceParents, on: connection, logger: logger)
        for warning in changes.issued {
            logger.info(
                "warning issued",
                metadata: ["city": "\(warning.cityId)", "kind": "\(warning.kind)", "number": "\(warning.announcementNumber)"])
        }
        if !changes.issued.isEmpty {
            logger.info("warning notifications queued", metadata: ["warnings": "\(changes.issued.count)", "notifications": "\(queued)"])
        }
    }
}
