import Foundation
import PlatformCore
import PlatformEvents

/// What the rules see in one forecast (A1): for each rule that fires, the first run of consecutive hours at
/// or past its Moderate threshold, within the horizon.
package struct DetectedWarning: Sendable, Equatable {
    package var kind: WarningRule.Kind
    package var severity: Severity
    package var onset: Date
    package var ends: Date
    /// The most extreme value in the run (highest for rising rules, lowest for falling ones).
    package var peak: Double

    package var status: String { "\(severity.capName) \(Self.noun(kind)) warning" }

    package init(kind: WarningRule.Kind, severity: Severity, onset: Date, ends: Date, peak: Double) {
        self.kind = kind
        self.severity = severity
        self.onset = onset
        self.ends = ends
        self.peak = peak
    }

    package var statusDescription: String {
        // Formatted, never converted to Int: a value outside Int's range would trap (validation bounds it too).
        let value = peak.rounded() == peak || abs(peak) >= 10 ? String(format: "%.0f", peak.rounded() + 0) : String(format: "%.1f", peak)
        switch kind {
        case .heat: return "Temperatures up to \(value) °C expected."
        case .frost: return "Temperatures down to \(value) °C expected."
        case .wind: return "Wind gusts up to \(value) km/h expected."
        case .storm: return "Thunderstorms with gusts up to \(value) km/h expected."
        case .heavyRain: return "Rain of up to \(value) mm an hour expected."
        case .snow: return "Snowfall of up to \(value) cm an hour expected."
        case .lowVisibility: return "Visibility down to \(value) km expected."
        }
    }

    private static func noun(_ kind: WarningRule.Kind) -> String {
        switch kind {
        case .heavyRain: "heavy rain"
        case .lowVisibility: "low visibility"
        default: kind.rawValue
        }
    }
}

/// Runs every rule over a forecast's hours from the one in progress at `fetchedAt` up to the horizon.
package struct WarningDetector: Sendable {
    package let rules: [WarningRule]
    package let horizon: Duration

    package init(rules: [WarningRule], horizon: Duration) {
        self.rules = rules
        self.horizon = horizon
    }

    package func detect(_ forecast: ForecastUpdated) -> [DetectedWarning] {
        let start = forecast.fetchedAt.addingTimeInterval(-3_600)
        let end = forecast.fetchedAt.addingTimeInterval(horizon.seconds)
        let hours = forecast.hours.filter { $0.time > start && $0.time < end }.sorted { $0.time < $1.time }
        return rules.compactMap { rule in detect(rule, in: hours) }
    }

    private func detect(_ rule: WarningRule, in hours: [ForecastHour]) -> DetectedWarning? {
        var found: DetectedWarning?
        for hour in hours {
            guard let severity = rule.severity(of: hour), let value = rule.value(of: hour) else {
                if found != nil { break }
                continue
            }
            if var run = found {
                // Consecutive hours only: a gap ends the run.
                guard hour.time.timeIntervalSince(run.ends) < 1 else { break }
                run.ends = hour.time.addingTimeInterval(3_600)
                run.severity = max(run.severity, severity)
                run.peak = rule.rising ? max(run.peak, value) : min(run.peak, value)
                found = run
            } else {
                found = DetectedWarning(
                    kind: rule.kind, severity: severity, onset: hour.time, ends: hour.time.addingTimeInterval(3_600), peak: value)
            }
        }
        return found
    }
}
