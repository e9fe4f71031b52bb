import Foundation
import Logging
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// weather-fetcher measured as it runs: the release binary against throw-away Postgres and the broker, with
/// a fake Open-Meteo on loopback whose answers are prepared beforehand (so the fake costs next to nothing).
/// - full refresh: the N biggest cities are tracked (the map's population threshold is set to the N-th
///   city's); timed from the service being ready until every city is stored and every event acknowledged.
/// - search: database execution time of one-letter prefix searches (EXPLAIN ANALYZE), a to z.
/// - city weather vs /health: wrk against both routes of the same process, one after the other; the city
///   route anonymously (served from the 5 s answer cache) and with 200 users' tokens (the cached answer plus
///   each user's recents/favourite query, and a recents write when the view order changes).
struct WeatherBench: ServiceBench {
    let binary: String
    let cataloguePath: String
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let cities: Int
    let loadSeconds: Int
    let connections: Int

    struct Results: Sendable {
        var trackedCities = 0
        var refreshCitiesPerSecond = 0.0
        /// weather-fetcher's CPU (user and system, from /proc) over the refresh, per city.
        var refreshCPUMillisecondsPerCity = 0.0
        var searchMilliseconds: (mean: Double, max: Double) = (0, 0)
        var weather: LoadResult?
        var weatherSignedIn: LoadResult?
        var health: LoadResult?
    }

    func run() async throws -> Results {
        let logger = Logger(label: "bench")
        let catalogue = try CatalogueRows(path: cataloguePath)
        let threshold = catalogue.populationThreshold(forBiggest: cities)
        let tracked = catalogue.rows.filter { $0.population >= threshold }
        progress("preparing fake Open-Meteo answers for \(tracked.count) cities")
        let answers = Dictionary(
            tracked.map {
                (
                    OpenMeteoKey.of(latitude: $0.latitude, longitude: $0.longitude),
                    OpenMeteoFake.answer(for: [($0.latitude, $0.longitude, $0.timeZone)])
                )
            },
            uniquingKeysWith: { first, _ in first })
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_weather")
        let topics = ServiceTopics(["WEATHER_FORECASTS_TOPIC": "forecasts"], prefix: "bench")
        try await topics.create(partitions: 6, brokers: brokers)
        let answerBox = answers
        let measured = try await withFakeHTTPServer({ request in
            let keys = OpenMeteoKey.all(in: request.query)
            let bodies = keys.compactMap { answerBox[$0] }
            guard bodies.count == keys.count else { return .init(status: 400, body: #"{"error":true,"reason":"unknown location"}"#) }
            return .init(body: bodies.count == 1 ? bodies[0] : "[" + bodies.joined(separator: ",") + "]")
        }) { fake -> Results in
            var results = Results()
            results.trackedCities = tracked.count
            let port = freePort()
            let tokens = try TestTokens()
            var users: [String] = []
            for index in 0..<200 { users.append(try await tokens.token(userId: "bench-user-\(index)")) }
            let base = serviceEnvironment(database: database, tokens: tokens)
            let service = try startService(
                binary: binary,
                environment: base.variables(
                    httpPort: "\(port)",
                    [
                        "WEATHER_CITY_CATALOGUE": cataloguePath, "OPEN_METEO_BASE_URL": fake.baseURL,
                        "WEATHER_FORECASTS_TOPIC": topics["WEATHER_FORECASTS_TOPIC"],
                        "WEATHER_MAP_MIN_POPULATION": "\(threshold)", "WEATHER_REFRESH_BATCH": "\(tracked.count + 100)",
                        "WEATHER_PROVIDER_REQUESTS_PER_SECOND": "10000", "LOG_LEVEL": "warning",
                    ]))
            defer { service.stop() }
            progress("weather-fetcher importing the catalogue, then refreshing \(tracked.count) cities")
            try await service.waitReady(port: port)
            let started = ContinuousClock.now
            let cpuBefore = StackProcesses.cpuSeconds(service.processIdentifier) ?? 0
            let configuration = databases.configuration(database: database, schema: "weather_fetcher")
            let (refreshed, rate, search) = try await withRunningClient(configuration.makeClient(logger: logger)) { client in
                // Cities stored before the window opened (the refresh may start as the service turns ready) are
                // left out of both the rate and the CPU per city.
                let before = try await queryInt(client, "SELECT count(*) FROM city_weather")
                while true {
                    let stored = try await queryInt(client, "SELECT count(*) FROM city_weather")
                    let unsent = try await queryInt(client, "SELECT count(*) FROM outbox WHERE sent_at IS NULL")
                    if stored >= tracked.count && unsent == 0 { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                let refreshed = max(1, tracked.count - before)
                return (refreshed, Double(refreshed) / (ContinuousClock.now - started).seconds, try await searchTimes(client, logger: logger))
            }
            results.refreshCitiesPerSecond = rate
            let cpu = (StackProcesses.cpuSeconds(service.processIdentifier) ?? 0) - cpuBefore
            results.refreshCPUMillisecondsPerCity = cpu * 1_000 / Double(refreshed)
            results.searchMilliseconds = search
            let city = tracked.first!.id
            progress("wrk: \(loadSeconds) s on /v1/cities/\(city)/weather, then \(loadSeconds) s on /health, \(connections) connections")
            results.weather = try LoadResult.wrk(
                url: "http://127.0.0.1:\(port)/v1/cities/\(city)/weather", seconds: loadSeconds, connections: connections)
            progress("wrk: \(loadSeconds) s on the same route with 200 users' tokens")
            results.weatherSignedIn = try LoadResult.wrk(
                url: "http://127.0.0.1:\(port)/v1/cities/\(city)/weather", seconds: loadSeconds, connections: connections,
                bearerTokens: users)
            results.health = try LoadResult.wrk(url: "http://127.0.0.1:\(port)/health", seconds: loadSeconds, connections: connections)
            return results
        }
        try await databases.dropDatabase(database)
        return measured
    }

    /// Mean and worst database execution time of the prefix search for each letter, as EXPLAIN ANALYZE reports it.
    private func searchTimes(_ client: PostgresClient, logger: Logger) async throws -> (mean: Double, max: Double) {
        var times: [Double] = []
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL: """
                        EXPLAIN (ANALYZE, FORMAT JSON) SELECT id, name FROM cities WHERE search_key LIKE '\(letter)%'
                        ORDER BY search_key, population DESC, id LIMIT 21
                        """), logger: logger)
            for try await json in rows.decode(String.self) {
                let plan = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
                if let time = plan?.first?["Execution Time"] as? Double { times.append(time) }
            }
        }
        return (times.reduce(0, +) / Double(max(times.count, 1)), times.max() ?? 0)
    }
}

/// How the fake finds a prepared answer: coordinates as the provider's URL spells them.
enum OpenMeteoKey {
    static func of(latitude: Double, longitude: Double) -> String {
        String(format: "%.4f,%.4f", latitude, longitude)
    }

    static func all(in query: [String: String]) -> [String] {
        let latitudes = (query["latitude"] ?? "").split(separator: ",").compactMap { Double($0) }
        let longitudes = (query["longitude"] ?? "").split(separator: ",").compactMap { Double($0) }
        return zip(latitudes, longitudes).map { of(latitude: $0, longitude: $1) }
    }
}

/// The few catalogue columns the bench needs, read from the TSV.
struct CatalogueRows {
    struct Row {
        var id: Int
        var latitude: Double
        var longitude: Double
        var timeZone: String
        var population: Int
    }

    let rows: [Row]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        rows = text.split(separator: "\n").dropFirst(2).compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            // The catalogue may carry more columns after the population (alternate names).
            guard fields.count >= 11, let id = Int(fields[0]), let latitude = Double(fields[7]), let longitude = Double(fields[8]),
                let population = Int(fields[10])
            else { return nil }
            return Row(id: id, latitude: latitude, longitude: longitude, timeZone: String(fields[9]), population: population)
        }
    }

    /// The population of the `count`-th biggest city.
    func populationThreshold(forBiggest count: Int) -> Int {
        let sorted = rows.map(\.population).sorted(by: >)
        guard !sorted.isEmpty, count > 0 else { return 0 }
        return sorted[min(count, sorted.count) - 1]
    }
}
