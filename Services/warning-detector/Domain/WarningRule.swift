import Foundation
import PlatformEvents

/// CAP severities a rule can reach; a threshold crossing is at least `Moderate`.
enum Severity: Int, Comparable, Sendable, CaseIterable {
    case moderate = 1, severe, extreme

    var capName: String {
        switch self {
        case .moderate: "Moderate"
        case .severe: "Severe"
        case .extreme: "Extreme"
        }
    }

    /// The severity a stored or published `capName` names; nil for any other text.
    init?(capName: String) {
        guard let severity = Self.allCases.first(where: { $0.capName == capName }) else { return nil }
        self = severity
    }

    static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One threshold rule (A1): which value of a forecast hour it reads, and the values at which it reaches
/// Moderate, Severe and Extreme. `rising` rules fire at or above their thresholds (heat, wind), falling ones
/// at or below (frost, visibility).
struct WarningRule: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case heat, frost, wind, storm
        case heavyRain = "heavy-rain"
        case snow
        case lowVisibility = "low-visibility"
    }

    let kind: Kind
    /// Moderate, Severe, Extreme.
    let thresholds: [Double]
    let rising: Bool

    /// The hour's value for this rule, nil when the hour says nothing about it (no visibility reported, or
    /// no thunderstorm for `storm`).
    func value(of hour: ForecastHour) -> Double? {
        switch kind {
        case .heat, .frost: hour.temperatureC
        case .wind: max(hour.windSpeedKmh, hour.windGustKmh ?? 0)
        // A storm is a thunderstorm; its gusts decide how bad (thresholds from 0 make any thunderstorm Moderate).
        case .storm: hour.condition == "thunderstorm" ? max(hour.windSpeedKmh, hour.windGustKmh ?? 0) : nil
        case .heavyRain: hour.precipitationMm
        case .snow: hour.snowfallCm
        case .lowVisibility: hour.visibilityKm
        }
    }

    func severity(of hour: ForecastHour) -> Severity? {
        guard let value = value(of: hour) else { return nil }
        var reached: Severity?
        for (level, threshold) in zip(Severity.allCases, thresholds) where rising ? value >= threshold : value <= threshold {
            reached = level
        }
        return reached
    }

    /// The unit the status description quotes.
    var unit: String {
        switch kind {
        case .heat, .frost: "°C"
        case .wind, .storm: "km/h"
        case .heavyRain: "mm an hour"
        case .snow: "cm an hour"
        case .lowVisibility: "km"
        }
    }
}
