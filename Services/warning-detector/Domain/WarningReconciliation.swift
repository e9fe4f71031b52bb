import Foundation
import PlatformCore
import PlatformEvents

/// What the rules found in one city's forecast.
package struct CityDetections: Sendable {
    package var forecast: ForecastUpdated
    package var detected: [DetectedWarning]
    /// The trace of the forecast's event (its consumer span), which the warning events continue.
    package var traceParent: String? = nil

    package init(forecast: ForecastUpdated, detected: [DetectedWarning], traceParent: String? = nil) {
        self.forecast = forecast
        self.detected = detected
        self.traceParent = traceParent
    }
}

/// How a city's live warnings follow its newest forecast (A1, A2): a kind the forecast shows and no live warning
/// has is issued with the next announcement number; a live warning whose fields changed is updated (same id and
/// number); a live warning the forecast no longer shows is cancelled. Pure: the store reads the live warnings and
/// the numbers, and writes what this returns.
package enum WarningReconciliation {
    /// One change, in the order its event is published (per city: issues and updates in detection order, then
    /// cancellations).
    package enum Change: Sendable, Equatable {
        case issued(Warning)
        case updated(Warning)
        case cancelled(Warning)
    }

    /// How many warnings `batch` issues against `live` (by city id): the announcement numbers to draw first.
    package static func issuedCount(_ batch: [CityDetections], live: [Int: [Warning]]) -> Int {
        batch.reduce(0) { total, item in
            let cityLive = live[item.forecast.city.id] ?? []
            return total + item.detected.filter { detection in !cityLive.contains { $0.kind == detection.kind } }.count
        }
    }

    /// The changes of each item of `batch`, by index, with `numbers` (at least `issuedCount` of them) given to
    /// new warnings in order and `newId` making their ids.
    package static func changes(
        _ batch: [CityDetections], live: [Int: [Warning]], numbers: [Int], newId: () -> UUID = UUID.init
    ) -> [[Change]] {
        var nextNumber = numbers.makeIterator()
        return batch.map { item in
            let city = item.forecast.city
            let cityLive = live[city.id] ?? []
            var changes: [Change] = []
            for detection in item.detected {
                if let before = cityLive.first(where: { $0.kind == detection.kind }) {
                    let after = updated(before, by: detection, fetchedAt: item.forecast.fetchedAt)
                    if after != before { changes.append(.updated(after)) }
                } else {
                    let number = nextNumber.next() ?? 0
                    changes.append(
                        .issued(
                            Warning(
                                id: newId(), cityId: city.id, kind: detection.kind,
                                announcementNumber: "\(year(of: item.forecast.fetchedAt))-\(String(format: "%06ld", number))",
                                location: city.name, region: [city.region, city.country].filter { !$0.isEmpty }.joined(separator: ", "),
                                latitude: city.latitude, longitude: city.longitude, timeZone: city.timeZone,
                                severity: detection.severity, status: detection.status, statusDescription: detection.statusDescription,
                                onset: detection.onset, ends: detection.ends)))
                }
            }
            for warning in cityLive where !item.detected.contains(where: { $0.kind == warning.kind }) {
                changes.append(.cancelled(warning))
            }
            return changes
        }
    }

    /// A live warning as a new detection of its kind describes it. A warning already under way keeps its first
    /// onset (A2): a forecast covers only the hours from the one in progress, so the detected onset moves with
    /// every refresh and would update the warning each hour.
    package static func updated(_ warning: Warning, by detection: DetectedWarning, fetchedAt: Date) -> Warning {
        var after = warning
        after.severity = detection.severity
        after.status = detection.status
        after.statusDescription = detection.statusDescription
        after.onset = warning.onset <= fetchedAt ? min(warning.onset, detection.onset) : detection.onset
        after.ends = detection.ends
        return after
    }

    private static func year(of date: Date) -> Int {
        CivilDate(clamping: date).components.year
    }
}
