import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// weather-fetcher's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `WEATHER_PROVIDER` | `open-meteo` (or `worldweatheronline`) |
/// | `OPEN_METEO_BASE_URL` | `https://api.open-meteo.com` |
/// | `WWO_BASE_URL`, `WWO_API_KEY` | `https://api.worldweatheronline.com`; the key is required for that provider |
/// | `WEATHER_CITIES_PER_REQUEST` | `50` (Open-Meteo; WorldWeatherOnline takes one) |
/// | `WEATHER_PROVIDER_TIMEOUT_MS` | `10000` per request |
/// | `WEATHER_PROVIDER_MAX_ATTEMPTS` | `3` (retries of timeouts, 429 and 5xx) |
/// | `WEATHER_PROVIDER_BACKOFF_MS`, `WEATHER_PROVIDER_MAX_BACKOFF_MS` | `500`, `30000` (jittered, doubling) |
/// | `WEATHER_PROVIDER_REQUESTS_PER_SECOND` | `5` |
/// | `WEATHER_CIRCUIT_FAILURES`, `WEATHER_CIRCUIT_COOLDOWN_MS` | `5` failed fetches in a row open the circuit for `60000` |
/// | `WEATHER_REFRESH_INTERVAL_SECONDS` | `900`: how often tracked cities are refreshed |
/// | `WEATHER_REFRESH_TICK_MS` | `15000`: how often the scheduler looks for due cities |
/// | `WEATHER_REFRESH_BATCH` | `200` cities claimed per tick |
/// | `WEATHER_FAILURE_RETRY_SECONDS` | `120`: a failed city is tried again after this, not a full interval |
/// | `WEATHER_STALE_AFTER_SECONDS` | three refresh intervals |
/// | `WEATHER_TRACK_VIEWED_DAYS` | `7`: a viewed city stays on the schedule this long |
/// | `WEATHER_MAP_MIN_POPULATION` | `1000000`: cities this big are always refreshed (the map's cities) |
/// | `WEATHER_MAP_MAX_CITIES` | `2000` per map answer |
/// | `WEATHER_ON_DEMAND_TIMEOUT_MS` | `8000`: how long a city request waits for a first fetch |
/// | `WEATHER_VIEW_CACHE_MS` | `5000`: how long a city weather answer is reused (0: never) |
/// | `WEATHER_FAVOURITES_CACHE_MS` | `3000`: how long a user's favourite cities are reused for the view's `isFavourite` (0: read every view); the user's own changes show at once on the instance that made them, on the others within this |
/// | `WEATHER_RECENT_VIEWS_FLUSH_MS` | `1000`: how often signed-in views are written to the recents, in one batch; a graceful stop writes the rest, a killed process loses at most this much |
/// | `FAVOURITES_PER_ACCOUNT` | `100`: favourite cities one account keeps (each is refreshed and followed for warnings); past it 422 `too_many_favourites` |
/// | `ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS` | `30`: views or shares of a city whose data is old that one client address may have refreshed from the provider per minute on one instance; past it the last known data, or 429 `rate_limited` for a city with none |
/// | `CITY_SEARCHES_PER_MINUTE_PER_ADDRESS` | `120`: city searches one client address (an IPv6 client's /64) may make per minute on one instance; past it 429 `rate_limited` |
/// | `CITY_SEARCH_STATEMENT_TIMEOUT_MS` | `2000`: Postgres' `statement_timeout` on the searches' own connections; a search cancelled by it is 422 `search_too_broad` |
/// | `WEATHER_CITY_CATALOGUE` | none: path of the catalogue TSV imported at start (`scripts/build-city-catalogue.py`) |
/// | `WEATHER_APP_NAME`, `WEATHER_APP_LINK` | `Weather App`, none (share texts, W10) |
/// | `PUBLIC_BASE_URL` | `http://localhost:8081`: where the public reaches this service; share links start with it |
/// | `SHARE_LINK_DAYS` | `30`: how long a shared weather text's page is shown (1-3650); then 410 |
/// | `WEATHER_FORECASTS_TOPIC`, `WEATHER_USER_CITIES_TOPIC` | the catalogue's names: topics of `forecast.updated` and of favourites |
/// | `WEATHER_WARNINGS_TOPIC`, `WEATHER_USERS_TOPIC` | the catalogue's names: the warnings and accounts consumed |
struct WeatherConfiguration: Sendable {
    enum ProviderChoice: String, Sendable {
        case openMeteo = "open-meteo"
        case worldWeatherOnline = "worldweatheronline"
    }

    var provider: ProviderChoice
    var openMeteoBaseURL: String
    var worldWeatherOnlineBaseURL: String
    var worldWeatherOnlineKey: Secret?
    var citiesPerRequest: Int
    var http: ProviderHTTPPolicy
    var refresh: RefreshSchedule
    var staleAfter: Duration
    var mapMaxCities: Int
    var onDemandTimeout: Duration
    var viewCacheTTL: Duration
    var favouritesCacheTTL: Duration
    var recentViewsFlushInterval: Duration
    var searchesPerMinutePerAddress: Int
    var onDemandRefreshesPerMinutePerAddress: Int
    var favouritesPerAccount: Int
    var searchStatementTimeout: Duration
    var catalogueFile: String?
    var appName: String
    var appLink: String?
    /// `PUBLIC_BASE_URL`, without a trailing slash: share links are absolute (W10).
    var publicBaseURL: String
    /// `SHARE_LINK_DAYS`: a shared text's page is shown this long after it was shared.
    var shareLinkDays: Int
    var forecastsTopic: String
    var userCitiesTopic: String
    /// nil: the catalogue's name.
    var warningsTopic: String?
    var usersTopic: String?

    init(environment: EnvironmentReader) throws(ConfigError) {
        provider =
            try environment.parsed("WEATHER_PROVIDER", expected: "open-meteo or worldweatheronline") {
                ProviderChoice(rawValue: $0.lowercased())
            } ?? .openMeteo
        openMeteoBaseURL = try Self.url(environment, "OPEN_METEO_BASE_URL", default: "https://api.open-meteo.com")
        worldWeatherOnlineBaseURL = try Self.url(environment, "WWO_BASE_URL", default: "https://api.worldweatheronline.com")
        worldWeatherOnlineKey = environment.string("WWO_API_KEY").map(Secret.init)
        if provider == .worldWeatherOnline, worldWeatherOnlineKey == nil { throw .missing(variable: "WWO_API_KEY") }
        citiesPerRequest = try environment.int("WEATHER_CITIES_PER_REQUEST", default: 50, range: 1...200)
        http = ProviderHTTPPolicy(
            timeout: try environment.milliseconds("WEATHER_PROVIDER_TIMEOUT_MS", default: 10_000, range: 10...300_000),
            maxAttempts: try environment.int("WEATHER_PROVIDER_MAX_ATTEMPTS", default: 3, range: 1...10),
            baseBackoff: try environment.milliseconds("WEATHER_PROVIDER_BACKOFF_MS", default: 500, range: 1...60_000),
            maxBackoff: try environment.milliseconds("WEATHER_PROVIDER_MAX_BACKOFF_MS", default: 30_000, range: 1...600_000),
            requestsPerSecond: Double(try environment.int("WEATHER_PROVIDER_REQUESTS_PER_SECOND", default: 5, range: 1...10_000)),
            circuitFailureThreshold: try environment.int("WEATHER_CIRCUIT_FAILURES", default: 5, range: 1...1_000),
            circuitCoolDown: try environment.milliseconds("WEATHER_CIRCUIT_COOLDOWN_MS", default: 60_000, range: 1...3_600_000))
        let interval = try environment.int("WEATHER_REFRESH_INTERVAL_SECONDS", default: 900, range: 1...86_400)
        refresh = RefreshSchedule(
            interval: .seconds(interval),
            tick: try environment.milliseconds("WEATHER_REFRESH_TICK_MS", default: 15_000, range: 10...3_600_000),
            batch: try environment.int("WEATHER_REFRESH_BATCH", default: 200, range: 1...10_000),
            failureRetry: .seconds(try environment.int("WEATHER_FAILURE_RETRY_SECONDS", default: 120, range: 1...86_400)),
            viewedWithin: .seconds(86_400 * (try environment.int("WEATHER_TRACK_VIEWED_DAYS", default: 7, range: 0...365))),
            mapPopulation: try environment.int("WEATHER_MAP_MIN_POPULATION", default: 1_000_000, range: 0...100_000_000))
        staleAfter = .seconds(try environment.int("WEATHER_STALE_AFTER_SECONDS", default: 3 * interval, range: 1...604_800))
        mapMaxCities = try environment.int("WEATHER_MAP_MAX_CITIES", default: 2_000, range: 1...50_000)
        onDemandTimeout = try environment.milliseconds("WEATHER_ON_DEMAND_TIMEOUT_MS", default: 8_000, range: 10...120_000)
        viewCacheTTL = try environment.milliseconds("WEATHER_VIEW_CACHE_MS", default: 5_000, range: 0...60_000)
        favouritesCacheTTL = try environment.milliseconds("WEATHER_FAVOURITES_CACHE_MS", default: 3_000, range: 0...60_000)
        recentViewsFlushInterval = try environment.milliseconds("WEATHER_RECENT_VIEWS_FLUSH_MS", default: 1_000, range: 10...60_000)
        searchesPerMinutePerAddress = try environment.int("CITY_SEARCHES_PER_MINUTE_PER_ADDRESS", default: 120, range: 1...1_000_000)
        favouritesPerAccount = try environment.int("FAVOURITES_PER_ACCOUNT", default: 100, range: 1...10_000)
        onDemandRefreshesPerMinutePerAddress = try environment.int(
            "ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS", default: 30, range: 1...1_000_000)
        searchStatementTimeout = try environment.milliseconds("CITY_SEARCH_STATEMENT_TIMEOUT_MS", default: 2_000, range: 100...60_000)
        catalogueFile = environment.string("WEATHER_CITY_CATALOGUE")
        appName = environment.string("WEATHER_APP_NAME", default: "Weather App")
        appLink = environment.string("WEATHER_APP_LINK")
        publicBaseURL = try environment.publicBaseURL(default: "http://localhost:8081")
        shareLinkDays = try environment.int("SHARE_LINK_DAYS", default: 30, range: 1...3_650)
        forecastsTopic = environment.string("WEATHER_FORECASTS_TOPIC", default: TopicCatalogue.forecasts.name)
        userCitiesTopic = environment.string("WEATHER_USER_CITIES_TOPIC", default: TopicCatalogue.userCities.name)
        warningsTopic = environment.string("WEATHER_WARNINGS_TOPIC")
        usersTopic = environment.string("WEATHER_USERS_TOPIC")
    }

    private static func url(_ environment: EnvironmentReader, _ name: String, default fallback: String) throws(ConfigError) -> String {
        try environment.parsed(name, expected: "an http(s) URL") { text in
            URL(string: text).flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil ? text : nil }
        } ?? fallback
    }
}
