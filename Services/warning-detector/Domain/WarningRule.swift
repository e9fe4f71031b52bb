import Foundation
import PlatformEvents

/// CAP severities a rule can reach; a threshold crossing is at least `Moderate`.
package enum Severity: Int, Comparable, Sendable, CaseIterable {
    case moderate = 1, severe, extreme

    package var capName: String { cap.rawValue }

    /// The severity as the warnings topic names it.
    package var cap: WarningSeverity {
        switch self {
        case .moderate: .moderate
        case .severe: .severe
        case .extreme: .extreme
        }
    }

    /// The severity a stored or published `capName` names; nil for any other text.
    package init?(capName: String) {
        guard let severity = Self.allCases.first(where: { $0.capName == capName }) else { return nil }
        self = severity
    }

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One threshold rule (A1): which value of a forecast hour it reads, and the values at which it reaches
/// Moderate, Severe and Extreme. `rising` rules fire at or above their thresholds (heat, wind), falling ones
/// at or below (frost, visibility).
package struct WarningRule: Sendable {
    package typealias Kind = WarningKind

    package let kind: Kind
    /// Moderate, Severe, Extreme.
    package let thresholds: [Double]
    package let rising: Bool

    package init(kind: Kind, thresholds: [Double], rising: Bool) {
        self.kind = kind
        self.thresholds = thresholds
        self.rising = rising
    }

    /// The hour's value for this rule, nil when the hour says nothing about it (no visibility reported, or
    /// no thunderstorm for `storm`).
    package func value(of hour: ForecastHour) -> Double? {
        switch kind {
        case .heat, .frost: hour.temperatureC
        case .wind: max(hour.windSpeedKmh, hour.windGustKmh ?? 0)
        // A storm is a thunderstorm; its gusts decide how bad (thresholds from 0 make any thunderstorm Moderate).
        case .storm: hour.condition == .thunderstorm ? max(hour.windSpeedKmh, hour.windGustKmh ?? 0) : nil
        case .heavyRain: hour.precipitationMm
        case .snow: hour.snowfallCm
        case .lowVisibility: hour.visibilityKm
        }
    }

    package func severity(of hour: ForecastHour) -> Severity? {
        guard let value = value(of: hour) else { return nil }
        var reached: Severity?
        for (level, threshold) in zip(Severity.allCases, thresholds) where rising ? value >= threshold : value <= threshold {
            reached = level
        }
        return reached
    }

    /// The unit the status description quotes.
    package var unit: String {
        switch kind {
        case .heat, .frost: "°C"
        case .wind, .storm: "km/h"
        case .heavyRain: "mm an hour"
        case .snow: "cm an hour"
        case .lowVisibility: "km"
        }
    }
}
