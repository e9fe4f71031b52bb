/// What a weather warning warns of (A1).
public enum WarningKind: String, Codable, Sendable, CaseIterable {
    case heat, frost, wind, storm
    case heavyRain = "heavy-rain"
    case snow
    case lowVisibility = "low-visibility"
}

/// A warning's severity in CAP's words (A1).
public enum WarningSeverity: String, Codable, Sendable, CaseIterable {
    case minor = "Minor"
    case moderate = "Moderate"
    case severe = "Severe"
    case extreme = "Extreme"
}
