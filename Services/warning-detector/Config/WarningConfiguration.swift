import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// warning-detector's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `WARNING_HEAT_C` | `30,35,40`: Moderate, Severe, Extreme at or above (°C) |
/// | `WARNING_FROST_C` | `0,-5,-10`: at or below (°C) |
/// | `WARNING_WIND_KMH` | `60,90,120`: wind or gust at or above (km/h) |
/// | `WARNING_STORM_GUST_KMH` | `0,70,100`: a thunderstorm hour, graded by its gusts (km/h) |
/// | `WARNING_RAIN_MM` | `10,25,50`: precipitation per hour at or above (mm) |
/// | `WARNING_SNOW_CM` | `1,3,6`: snowfall per hour at or above (cm) |
/// | `WARNING_VISIBILITY_KM` | `1,0.2,0.05`: visibility at or below (km) |
/// | `WARNING_HORIZON_HOURS` | `48`: how far ahead of a forecast's time the rules look |
/// | `WARNING_FORECASTS_TOPIC`, `WARNING_USER_CITIES_TOPIC`, `WARNING_WARNINGS_TOPIC` | the catalogue's topics |
/// | `WARNING_APPOINTMENTS_TOPIC` | the catalogue's `appointments.bookings`: its reminders are pushed |
/// | `WARNING_USERS_TOPIC` | the catalogue's `auth.users`: account deletions and merges (U9) |
/// | `PUSH_BASE_URL` | `https://api.push.apple.com` (APNs; `https://api.sandbox.push.apple.com` for development) |
/// | `PUSH_TEAM_ID`, `PUSH_KEY_ID`, `PUSH_SIGNING_KEY` | the APNs auth key: team, key id and the `.p8` PEM, for every app; without them nothing is sent and deliveries wait |
/// | `PUSH_WEATHER_TOPIC` (or `PUSH_TOPIC`), `PUSH_HOROSCOPE_TOPIC` | `com.example.weather`, `com.example.horoscope`: each app's bundle id (U8) |
/// | `PUSH_<APP>_TEAM_ID`, `PUSH_<APP>_KEY_ID`, `PUSH_<APP>_SIGNING_KEY` | the shared key: an app whose key is another team's (`<APP>`: `WEATHER`, `HOROSCOPE`) |
/// | `PUSH_CA_FILE` | none: a PEM of extra trusted roots (a private push gateway, tests) |
/// | `PUSH_MAX_ATTEMPTS` | `8`, then the delivery is `failed` |
/// | `PUSH_BACKOFF_MS`, `PUSH_MAX_BACKOFF_MS` | `1000`, `600000`: doubling per attempt, at least the provider's `Retry-After` |
/// | `PUSH_TICK_MS` | `1000`: how often the sender looks for due deliveries |
/// | `DAILY_FORECAST_ENABLED` | `true`: queue the daily forecast message |
/// | `DAILY_FORECAST_TICK_MS` | `60000`: how often the daily-message scheduler looks for devices whose day began |
/// | `DAILY_FORECAST_WINDOW_HOURS` | `6`: a device whose day began longer ago than this (the service was down) gets no message that day |
/// | `DEVICES_PER_ACCOUNT` | `10`: push tokens one account keeps; registering another drops its least recently registered |
struct WarningConfiguration: Sendable {
    var rules: [WarningRule]
    var horizon: Duration
    var forecastsTopic: String
    var userCitiesTopic: String
    var warningsTopic: String
    var appointmentsTopic: String
    var usersTopic: String
    var push: PushConfiguration
    var dailyEnabled: Bool
    var dailyTick: Duration
    var dailyWindow: Duration
    var devicesPerAccount: Int

    init(environment: EnvironmentReader) throws(ConfigError) {
        rules = [
            try Self.rule(environment, "WARNING_HEAT_C", .heat, [30, 35, 40], rising: true),
            try Self.rule(environment, "WARNING_FROST_C", .frost, [0, -5, -10], rising: false),
            try Self.rule(environment, "WARNING_WIND_KMH", .wind, [60, 90, 120], rising: true),
            try Self.rule(environment, "WARNING_STORM_GUST_KMH", .storm, [0, 70, 100], rising: true),
            try Self.rule(environment, "WARNING_RAIN_MM", .heavyRain, [10, 25, 50], rising: true),
            try Self.rule(environment, "WARNING_SNOW_CM", .snow, [1, 3, 6], rising: true),
            try Self.rule(environment, "WARNING_VISIBILITY_KM", .lowVisibility, [1, 0.2, 0.05], rising: false),
        ]
        horizon = .seconds(3_600 * (try environment.int("WARNING_HORIZON_HOURS", default: 48, range: 1...240)))
        forecastsTopic = environment.string("WARNING_FORECASTS_TOPIC", default: TopicCatalogue.forecasts.name)
        userCitiesTopic = environment.string("WARNING_USER_CITIES_TOPIC", default: TopicCatalogue.userCities.name)
        warningsTopic = environment.string("WARNING_WARNINGS_TOPIC", default: TopicCatalogue.warnings.name)
        appointmentsTopic = environment.string("WARNING_APPOINTMENTS_TOPIC", default: TopicCatalogue.appointments.name)
        usersTopic = environment.string("WARNING_USERS_TOPIC", default: TopicCatalogue.users.name)
        push = try PushConfiguration(environment: environment)
        dailyEnabled = try environment.bool("DAILY_FORECAST_ENABLED", default: true)
        dailyTick = try environment.milliseconds("DAILY_FORECAST_TICK_MS", default: 60_000, range: 10...3_600_000)
        dailyWindow = .seconds(3_600 * (try environment.int("DAILY_FORECAST_WINDOW_HOURS", default: 6, range: 1...23)))
        devicesPerAccount = try environment.int("DEVICES_PER_ACCOUNT", default: 10, range: 1...1_000)
    }

    /// Three thresholds, ordered so that each is harder to reach than the one before.
    private static func rule(
        _ environment: EnvironmentReader, _ name: String, _ kind: WarningRule.Kind, _ fallback: [Double], rising: Bool
    ) throws(ConfigError) -> WarningRule {
        let expected = rising ? "three increasing numbers (Moderate,Severe,Extreme)" : "three decreasing numbers (Moderate,Severe,Extreme)"
        let thresholds =
            try environment.parsed(name, expected: expected) { text -> [Double]? in
                let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard numbers.count == 3, numbers.allSatisfy(\.isFinite) else { return nil }
                return numbers == (rising ? numbers.sorted() : numbers.sorted(by: >)) ? numbers : nil
            } ?? fallback
        return WarningRule(kind: kind, thresholds: thresholds, rising: rising)
    }
}

/// The APNs connection and the delivery policy (A5).
struct PushConfiguration: Sendable {
    var baseURL: String
    /// Each app's APNs topic (its bundle id).
    var topics: [PushApp: String]
    /// The apps whose key is configured in full; pushes of the others wait.
    var credentials: [PushApp: PushCredentials]
    var caFile: String?
    var maxAttempts: Int
    var baseBackoff: Duration
    var maxBackoff: Duration
    var tick: Duration

    var credentialsComplete: Bool { !credentials.isEmpty }

    init(environment: EnvironmentReader) throws(ConfigError) {
        baseURL =
            try environment.parsed("PUSH_BASE_URL", expected: "an http(s) URL") { text in
                URL(string: text).flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil ? text : nil }
            } ?? "https://api.push.apple.com"
        var topics: [PushApp: String] = [:]
        var credentials: [PushApp: PushCredentials] = [:]
        for app in PushApp.allCases {
            let prefix = "PUSH_\(app.rawValue.uppercased())_"
            topics[app] =
                environment.string(prefix + "TOPIC")
                ?? (app == .weather ? environment.string("PUSH_TOPIC", default: app.defaultTopic) : app.defaultTopic)
            if let teamId = environment.string(prefix + "TEAM_ID") ?? environment.string("PUSH_TEAM_ID"),
                let keyId = environment.string(prefix + "KEY_ID") ?? environment.string("PUSH_KEY_ID"),
                let key = environment.string(prefix + "SIGNING_KEY") ?? environment.string("PUSH_SIGNING_KEY")
            {
                credentials[app] = PushCredentials(teamId: teamId, keyId: keyId, signingKey: Secret(key))
            }
        }
        self.topics = topics
        self.credentials = credentials
        caFile = environment.string("PUSH_CA_FILE")
        maxAttempts = try environment.int("PUSH_MAX_ATTEMPTS", default: 8, range: 1...50)
        baseBackoff = try environment.milliseconds("PUSH_BACKOFF_MS", default: 1_000, range: 1...3_600_000)
        maxBackoff = try environment.milliseconds("PUSH_MAX_BACKOFF_MS", default: 600_000, range: 1...86_400_000)
        tick = try environment.milliseconds("PUSH_TICK_MS", default: 1_000, range: 10...600_000)
    }
}

/// An APNs auth key: the team, the key's id and its `.p8` PEM.
struct PushCredentials: Sendable {
    var teamId: String
    var keyId: String
    var signingKey: Secret
}
