import Foundation
import Logging
import PlatformEvents

/// A batch of `weather.forecasts` applied (A1, A2, A5): the newest forecast of each city, what the rules detect
/// in it, the city's warnings made to match, and a push queued for each new warning that has not already ended.
package struct ApplyForecasts: Sendable {
    package let detector: WarningDetector

    package init(detector: WarningDetector) {
        self.detector = detector
    }

    /// A batch position that holds no forecast: the event does not belong on the forecasts topic.
    package struct NotAForecast: Error, Equatable {
        package let position: Int

        package init(position: Int) {
            self.position = position
        }
    }

    /// Positions of the forecasts to apply: the newest of each city (of two with the same time, the later in the
    /// batch), in the order each city first appears. An older forecast would be superseded within the same
    /// transaction, and applying it first could issue and at once cancel a warning (and push it).
    package static func newestPerCity(_ forecasts: [ForecastUpdated?]) throws(NotAForecast) -> [Int] {
        var newest: [Int: Int] = [:]
        var order: [Int] = []
        for (position, decoded) in forecasts.enumerated() {
            guard let forecast = decoded else { throw NotAForecast(position: position) }
            if let seen = newest[forecast.city.id] {
                if forecasts[seen]?.fetchedAt ?? .distantPast > forecast.fetchedAt { continue }
            } else {
                order.append(forecast.city.id)
            }
            newest[forecast.city.id] = position
        }
        return order.compactMap { newest[$0] }
    }

    /// Applies `forecasts` (one per city) with `store`; `now` decides which new warnings have already ended.
    package func run(
        _ forecasts: [ForecastUpdated], traceParents: [Int: String], store: any ForecastApplying, now: Date, logger: Logger
    ) async throws -> WarningChanges {
        guard !forecasts.isEmpty else { return .init() }
        let stored = try await store.record(forecasts)
        let current = forecasts.filter { stored.contains($0.city.id) }
        if current.count < forecasts.count {
            logger.debug("older forecasts ignored", metadata: ["count": "\(forecasts.count - current.count)"])
        }
        let changes = try await store.apply(
            current.map { CityDetections(forecast: $0, detected: detector.detect($0), traceParent: traceParents[$0.city.id]) })
        // A warning that ended before it was detected (a late or replayed forecast) is stored, never pushed (A5).
        let queued = try await store.queuePushes(of: changes.issued.filter { $0.ends > now }, traceParents: traceParents)
        for warning in changes.issued {
            logger.info(
                "warning issued",
                metadata: ["city": "\(warning.cityId)", "kind": "\(warning.kind.rawValue)", "number": "\(warning.announcementNumber)"])
        }
        if !changes.issued.isEmpty {
            logger.info("warning notifications queued", metadata: ["warnings": "\(changes.issued.count)", "notifications": "\(queued)"])
        }
        return changes
    }
}
