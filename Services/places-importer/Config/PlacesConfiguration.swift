import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// places-importer's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `PLACES_OVERPASS_BASE_URL` | `https://overpass-api.de` |
/// | `PLACES_YELP_BASE_URL`, `PLACES_YELP_API_KEY` | `https://api.yelp.com`; Yelp imports run only with a key |
/// | `PLACES_NOMINATIM_BASE_URL` | `https://nominatim.openstreetmap.org` (address lookup when adding a place) |
/// | `PLACES_LOOKUPS_PER_ACCOUNT_HOUR` | `30`: address look-ups (adding a place by address, `/v1/places/lookup`) one account may make an hour; past it 429 `rate_limited` |
/// | `PLACES_RATINGS_PER_ACCOUNT_DAY` | `100`: places one account may rate in any 24 hours (re-rating one is free); past it 429 `too_many_ratings` |
/// | `PLACES_ADDED_PER_ACCOUNT_DAY` | `20`: places one account may add in any 24 hours (each is shown to others at once); past it 429 `too_many_places` |
/// | `PLACES_LOOKUP_QUEUE` | `10`: look-ups that may wait for the one running (Nominatim allows about one a second); past it 429 `lookup_busy` |
/// | `PLACES_TILE_MILLIDEGREES` | `100` (0.1°): areas are split into tiles this big, one request each |
/// | `PLACES_YELP_RESULT_CAP` | `240`: Yelp's documented limit on offset + limit per search |
/// | `PLACES_IMPORT_AREAS` | none: `name:south,west,north,east[:worship];...` imported on the schedule (`:worship`: places of worship too) |
/// | `PLACES_IMPORT_INTERVAL_SECONDS` | `86400` |
/// | `PLACES_IMPORT_TICK_MS` | `10000`: how often the scheduler looks for a due area |
/// | `PLACES_PROVIDER_TIMEOUT_MS` | `90000` per request (Overpass queries run up to 60 s) |
/// | `PLACES_PROVIDER_MAX_ATTEMPTS` | `4` |
/// | `PLACES_PROVIDER_BACKOFF_MS`, `PLACES_PROVIDER_MAX_BACKOFF_MS` | `2000`, `120000` (at least the provider's `Retry-After`) |
/// | `PLACES_PROVIDER_REQUESTS_PER_SECOND` | `1` |
/// | `PLACES_MATCH_DISTANCE_METRES` | `50`: two providers' places this close with the same name are one |
/// | `PLACES_MAX_RADIUS_METRES`, `PLACES_MAX_BOX_MILLIDEGREES` | `50000`, `1000` (1°): the largest nearby query |
/// | `PLACES_NEARBY_SOURCE` | `memory`: nearby lists from an in-memory index of every place (about 1 KB a place); `postgis` asks the database per request |
/// | `PLACES_NEARBY_REFRESH_MS` | `1000`: how soon the index shows places written by other instances |
/// | `PLACES_PIN_CACHE_MS` | `5000`: how long a user's pins are reused; changes through another instance show after at most this |
/// | `PLACES_ON_DEMAND` | `true`: a nearby list where no area was ever imported queues the tile around its point |
/// | `PLACES_ON_DEMAND_TILE_MILLIDEGREES` | `100` (0.1°): the on-demand tile's edge |
/// | `PLACES_ON_DEMAND_TILES_PER_HOUR`, `PLACES_ON_DEMAND_TILES_PER_USER_HOUR` | `60`, `5`: new on-demand tiles an hour, for everyone and per user |
/// | `PLACES_ON_DEMAND_TILE_TTL_HOURS`, `PLACES_ON_DEMAND_EXPIRY_INTERVAL_MS` | `720`, `3600000`: an on-demand tile nobody asked about for this long stops being imported (checked this often) |
/// | `PLACES_TOPIC` | the catalogue's name: the topic of the places' changes |
/// | `PLACES_USERS_TOPIC`, `PLACES_REQUESTS_TOPIC` | the catalogue's names: the accounts and place requests consumed |
struct PlacesConfiguration: Sendable {
    var overpassBaseURL: String
    var yelpBaseURL: String
    var yelpKey: Secret?
    var nominatimBaseURL: String
    var lookupsPerAccountHour: Int
    var addedPerAccountDay: Int
    var ratingsPerAccountDay: Int
    var lookupQueue: Int
    var tileDegrees: Double
    var yelpResultCap: Int
    var areas: [ConfiguredArea]
    var importInterval: Duration
    var importTick: Duration
    var http: ProviderHTTPPolicy
    var matchDistanceMetres: Double
    var maxRadiusMetres: Int
    var maxBoxDegrees: Double
    var nearbyFromMemory: Bool
    var nearbyRefresh: Duration
    var pinCacheTTL: Duration
    var onDemand: Bool
    var onDemandTileDegrees: Double
    var onDemandTilesPerHour: Int
    var onDemandTilesPerUserHour: Int
    var onDemandTileTTL: Duration
    var onDemandExpiryInterval: Duration
    var placesTopic: String
    /// nil: the catalogue's name.
    var usersTopic: String?
    var requestsTopic: String?

    init(environment: EnvironmentReader) throws(ConfigError) {
        overpassBaseURL = try Self.url(environment, "PLACES_OVERPASS_BASE_URL", default: "https://overpass-api.de")
        yelpBaseURL = try Self.url(environment, "PLACES_YELP_BASE_URL", default: "https://api.yelp.com")
        yelpKey = environment.string("PLACES_YELP_API_KEY").map(Secret.init)
        nominatimBaseURL = try Self.url(environment, "PLACES_NOMINATIM_BASE_URL", default: "https://nominatim.openstreetmap.org")
        lookupsPerAccountHour = try environment.int("PLACES_LOOKUPS_PER_ACCOUNT_HOUR", default: 30, range: 1...100_000)
        addedPerAccountDay = try environment.int("PLACES_ADDED_PER_ACCOUNT_DAY", default: 20, range: 1...100_000)
        ratingsPerAccountDay = try environment.int("PLACES_RATINGS_PER_ACCOUNT_DAY", default: 100, range: 1...100_000)
        lookupQueue = try environment.int("PLACES_LOOKUP_QUEUE", default: 10, range: 0...10_000)
        tileDegrees = Double(try environment.int("PLACES_TILE_MILLIDEGREES", default: 100, range: 1...5_000)) / 1_000
        yelpResultCap = try environment.int("PLACES_YELP_RESULT_CAP", default: 240, range: 50...1_000)
        areas = try environment.parsed("PLACES_IMPORT_AREAS", expected: "name:south,west,north,east[:worship];...", Self.parseAreas) ?? []
        importInterval = .seconds(try environment.int("PLACES_IMPORT_INTERVAL_SECONDS", default: 86_400, range: 1...2_592_000))
        importTick = try environment.milliseconds("PLACES_IMPORT_TICK_MS", default: 10_000, range: 10...3_600_000)
        http = ProviderHTTPPolicy(
            timeout: try environment.milliseconds("PLACES_PROVIDER_TIMEOUT_MS", default: 90_000, range: 10...600_000),
            maxAttempts: try environment.int("PLACES_PROVIDER_MAX_ATTEMPTS", default: 4, range: 1...10),
            baseBackoff: try environment.milliseconds("PLACES_PROVIDER_BACKOFF_MS", default: 2_000, range: 1...600_000),
            maxBackoff: try environment.milliseconds("PLACES_PROVIDER_MAX_BACKOFF_MS", default: 120_000, range: 1...3_600_000),
            requestsPerSecond: Double(try environment.int("PLACES_PROVIDER_REQUESTS_PER_SECOND", default: 1, range: 1...10_000)),
            circuitFailureThreshold: 5, circuitCoolDown: .seconds(300),
            // The providers' usage rules: one request at a time.
            maxConcurrentRequests: 1)
        matchDistanceMetres = Double(try environment.int("PLACES_MATCH_DISTANCE_METRES", default: 50, range: 1...1_000))
        maxRadiusMetres = try environment.int("PLACES_MAX_RADIUS_METRES", default: 50_000, range: 100...500_000)
        maxBoxDegrees = Double(try environment.int("PLACES_MAX_BOX_MILLIDEGREES", default: 1_000, range: 1...180_000)) / 1_000
        nearbyFromMemory =
            try environment.parsed("PLACES_NEARBY_SOURCE", expected: "memory or postgis") { text in
                ["memory": true, "postgis": false][text]
            } ?? true
        nearbyRefresh = try environment.milliseconds("PLACES_NEARBY_REFRESH_MS", default: 1_000, range: 10...600_000)
        pinCacheTTL = try environment.milliseconds("PLACES_PIN_CACHE_MS", default: 5_000, range: 0...600_000)
        onDemand = try environment.bool("PLACES_ON_DEMAND", default: true)
        onDemandTileDegrees = Double(try environment.int("PLACES_ON_DEMAND_TILE_MILLIDEGREES", default: 100, range: 10...1_000)) / 1_000
        onDemandTilesPerHour = try environment.int("PLACES_ON_DEMAND_TILES_PER_HOUR", default: 60, range: 0...100_000)
        onDemandTilesPerUserHour = try environment.int("PLACES_ON_DEMAND_TILES_PER_USER_HOUR", default: 5, range: 0...1_000)
        onDemandTileTTL = .seconds(try environment.int("PLACES_ON_DEMAND_TILE_TTL_HOURS", default: 720, range: 1...87_600) * 3_600)
        onDemandExpiryInterval = try environment.milliseconds("PLACES_ON_DEMAND_EXPIRY_INTERVAL_MS", default: 3_600_000, range: 100...86_400_000)
        placesTopic = environment.string("PLACES_TOPIC", default: TopicCatalogue.places.name)
        usersTopic = environment.string("PLACES_USERS_TOPIC")
        requestsTopic = environment.string("PLACES_REQUESTS_TOPIC")
    }

    /// An import area from `PLACES_IMPORT_AREAS`; `:worship` after the box asks for places of worship too.
    struct ConfiguredArea: Sendable, Equatable {
        var name: String
        var box: GeoBox
        var placesOfWorship: Bool
    }

    static func parseAreas(_ text: String) -> [ConfiguredArea]? {
        var areas: [ConfiguredArea] = []
        for entry in text.split(separator: ";") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || (parts.count == 3 && parts[2].trimmingCharacters(in: .whitespaces) == "worship") else { return nil }
            let numbers = parts[1].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4 else { return nil }
            let box = GeoBox(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
            guard box.isValid else { return nil }
            areas.append(ConfiguredArea(name: parts[0].trimmingCharacters(in: .whitespaces), box: box, placesOfWorship: parts.count == 3))
        }
        return areas
    }

    private static func url(_ environment: EnvironmentReader, _ name: String, default fallback: String) throws(ConfigError) -> String {
        try environment.parsed(name, expected: "an http(s) URL") { text in
            URL(string: text).flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil ? text : nil }
        } ?? fallback
    }
}
