import PlatformCore
import PlatformEvents

/// analytics-aggregator's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `TELEMETRY_APP_KEYS` | none (every batch is refused 401): `weather=KEY1,KEY2;places=KEY3;...`, several keys per app while one is rotated out |
/// | `TELEMETRY_MAX_AGE_DAYS` | `30`: older events are refused (`too_old`) |
/// | `TELEMETRY_MAX_SKEW_SECONDS` | `300`: events further ahead of the server's clock are refused (`in_the_future`) |
/// | `TELEMETRY_EVENTS_PER_MINUTE_PER_APP` | `600000`: events one app key may send per minute to one instance; past it 429 `rate_limited` with `Retry-After` |
/// | `TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS` | `3000`: the same per client address (an IPv6 client's /64) |
/// | `SURVEY_COUPON_WINDOW_DAYS` | `365`: one hotel-survey coupon per verified mailbox in this many days (N4) |
/// | `ANALYTICS_USER_KEYS_RETENTION_DAYS` | `90`: a feature's exact user keys are kept this long, then it is counted by its sketch (see `AggregateRetention`) |
/// | `ANALYTICS_APPLIED_IDS_RETENTION_DAYS` | `400`: ids of applied events kept to de-duplicate; at least the telemetry topic's retention |
/// | `ANALYTICS_RETENTION_INTERVAL_MS` | `3600000`: how often the retention runs |
/// | `DISTINCT_USERS_EXACT_LIMIT` | `10000`: distinct users per feature counted exactly up to this, with HyperLogLog beyond |
/// | `DASHBOARD_AUTH_URL` | `http://127.0.0.1:8084`: auth's base URL as the admin's browser reaches it |
/// | `STREAM_INTERVAL_MS` | `500`: how often the dashboard's live stream looks for changed numbers |
/// | `STATS_CACHE_MS` | `500`: how long a dashboard answer is served from memory (0: never) |
/// | `ANALYTICS_TELEMETRY_TOPIC`, `ANALYTICS_USERS_TOPIC`, `ANALYTICS_USER_CITIES_TOPIC` | the catalogue's `analytics.telemetry`, `auth.users`, `weather.user-cities` |
struct AnalyticsConfiguration: Sendable {
    var appKeys: AppKeys
    var maxAgeDays: Int
    var maxSkewSeconds: Int
    var eventsPerMinutePerApp: Int
    var eventsPerMinutePerAddress: Int
    var exactUsersLimit: Int
    var surveyCouponWindowDays: Int
    var userKeysRetentionDays: Int
    var appliedIdsRetentionDays: Int
    var retentionInterval: Duration
    var dashboardAuthURL: String
    var streamInterval: Duration
    var statsCacheLifetime: Duration
    var telemetryTopic: String
    var usersTopic: String
    var userCitiesTopic: String

    init(environment: EnvironmentReader) throws(ConfigError) {
        appKeys =
            try environment.parsed("TELEMETRY_APP_KEYS", expected: "app=key[,key];app=key with apps weather, places, horoscope, survey") {
                AppKeys(parsing: $0)
            } ?? AppKeys(keysByApp: [:])
        maxAgeDays = try environment.int("TELEMETRY_MAX_AGE_DAYS", default: 30, range: 1...3650)
        maxSkewSeconds = try environment.int("TELEMETRY_MAX_SKEW_SECONDS", default: 300, range: 0...86_400)
        eventsPerMinutePerApp = try environment.int("TELEMETRY_EVENTS_PER_MINUTE_PER_APP", default: 600_000, range: 1...100_000_000)
        eventsPerMinutePerAddress = try environment.int("TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS", default: 3_000, range: 1...10_000_000)
        exactUsersLimit = try environment.int("DISTINCT_USERS_EXACT_LIMIT", default: 10_000, range: 1...10_000_000)
        surveyCouponWindowDays = try environment.int("SURVEY_COUPON_WINDOW_DAYS", default: 365, range: 1...3650)
        userKeysRetentionDays = try environment.int("ANALYTICS_USER_KEYS_RETENTION_DAYS", default: 90, range: 1...3650)
        appliedIdsRetentionDays = try environment.int("ANALYTICS_APPLIED_IDS_RETENTION_DAYS", default: 400, range: 1...36500)
        retentionInterval = try environment.milliseconds("ANALYTICS_RETENTION_INTERVAL_MS", default: 3_600_000, range: 1_000...86_400_000)
        // A client may resend an event for TELEMETRY_MAX_AGE_DAYS: its id must still be known then.
        guard appliedIdsRetentionDays > maxAgeDays else {
            throw ConfigError.malformed(
                variable: "ANALYTICS_APPLIED_IDS_RETENTION_DAYS", value: "\(appliedIdsRetentionDays)",
                expected: "more days than TELEMETRY_MAX_AGE_DAYS (\(maxAgeDays)), or resent events would count twice")
        }
        dashboardAuthURL = environment.string("DASHBOARD_AUTH_URL", default: "http://127.0.0.1:8084")
        streamInterval = try environment.milliseconds("STREAM_INTERVAL_MS", default: 500, range: 50...60_000)
        statsCacheLifetime = try environment.milliseconds("STATS_CACHE_MS", default: 500, range: 0...60_000)
        telemetryTopic = environment.string("ANALYTICS_TELEMETRY_TOPIC", default: TopicCatalogue.telemetry.name)
        usersTopic = environment.string("ANALYTICS_USERS_TOPIC", default: TopicCatalogue.users.name)
        userCitiesTopic = environment.string("ANALYTICS_USER_CITIES_TOPIC", default: TopicCatalogue.userCities.name)
    }
}
