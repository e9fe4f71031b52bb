/// What a telemetry event records (N1): the closed set the ingest accepts and the aggregates count.
public enum TelemetryKind: String, Codable, Sendable, CaseIterable {
    case install
    case featureUsed = "feature_used"
    case screenViewed = "screen_viewed"
    case cityViewed = "city_viewed"
}

/// The apps that send telemetry (N1), each with its keys (`APP_KEYS`).
public enum TelemetryApp: String, Codable, Sendable, CaseIterable {
    case weather, places, horoscope, survey
}

/// The platform an app install runs on (N1, N2: downloads by platform).
public enum TelemetryPlatform: String, Codable, Sendable, CaseIterable {
    case ios, android, web
}

/// Which part of the hotel survey an event is about (N4): a rated service or the overall rating.
public enum SurveyPart: String, Codable, Sendable, CaseIterable {
    case service, overall
}

/// The hotel's services the survey rates (N4).
public enum HotelService: String, Codable, Sendable, CaseIterable {
    case rooms, dining
    case spaPool = "spa-pool"
    case gym
}
