import ArgumentParser
import Foundation
import Logging

/// Measures the platform's Kafka client (PlatformKafka) and the outbox relay against the real broker and Postgres, next to
/// librdkafka's own `rdkafka_performance` in the same run, and prints a Markdown table.
/// Run it through `scripts/bench.sh`, which starts throw-away infrastructure and passes its addresses.
@main
struct PlatformBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platform-bench", abstract: "Throughput of the platform's Kafka client and the outbox relay.")

    @Option(help: "Broker list.") var brokers: String
    @Option(help: "Postgres host.") var postgresHost = "127.0.0.1"
    @Option(help: "Postgres port.") var postgresPort: Int
    @Option(help: "Postgres superuser.") var postgresUser = "postgres"
    @Option(help: "Messages per Kafka measurement.") var count = 200_000
    @Option(help: "Message size in bytes.") var size = 1_024
    @Option(help: "Events in the outbox measurement.") var outboxCount = 50_000
    @Option(help: "Path of librdkafka's rdkafka_performance.") var reference = "/usr/local/bin/rdkafka_performance"
    @Option(help: "bcrypt cost for the auth rows (the service's BCRYPT_COST).") var bcryptCost = 12
    @Option(
        help: ArgumentHelp(
            "Which groups of rows to measure (comma-separated: kafka, outbox, consumer, auth, weather, places, warnings, appointments, "
                + "analytics, stack; stack runs only when named)."))
    var only = "kafka,outbox,consumer,auth,weather,places,warnings,appointments,analytics"
    @Option(help: "Events in the idempotent-consumer rows.") var consumerEvents = 100_000
    @Option(help: "Messages per poll in the idempotent-consumer rows (CONSUMER_BATCH_SIZE).") var consumerBatchSize = 2_000
    @Option(help: "psql, the reference client of the consumer rows.") var psql = "/usr/lib/postgresql/15/bin/psql"
    @Option(help: "The warning-detector executable (release build).") var warningBinary = ".build/release/warning-detector"
    @Option(help: "Forecast events in the warnings throughput row.") var warningEvents = 10_000
    @Option(help: "Forecasts timed one by one in the warnings latency row.") var warningSamples = 200
    @Option(help: "KAFKA_FETCH_WAIT_MAX_MS for the warning-detector under test (its default when not given).")
    var warningFetchWaitMs: Int?
    @Option(help: "The places-importer executable (release build).") var placesBinary = ".build/release/places-importer"
    @Option(help: "Places in the places rows.") var places = 100_000
    @Option(help: "The weather-fetcher executable (release build).") var weatherBinary = ".build/release/weather-fetcher"
    @Option(help: "The city catalogue TSV.") var catalogue = "data/generated/cities15000.tsv"
    @Option(help: "Cities in the weather full-refresh row.") var weatherCities = 1_000
    @Option(help: "The appointment-booker executable (release build).") var appointmentBinary = ".build/release/appointment-booker"
    @Option(help: "Booking requests in each appointments booking row.") var bookings = 2_000
    @Option(help: "Booking requests in flight at once.") var bookingConcurrency = 32
    @Option(help: "The analytics-aggregator executable (release build).") var analyticsBinary = ".build/release/analytics-aggregator"
    @Option(help: "Telemetry events in the analytics aggregation row.") var analyticsEvents = 200_000
    @Option(help: "Events whose aggregates the analytics query rows read.") var analyticsLargeEvents = 10_000_000
    @Option(help: "Seconds of load per HTTP route.") var loadSeconds = 10
    @Option(help: "Concurrent connections of the HTTP load.") var connections = 32
    @Option(help: "stack: the build directory whose services and platformctl the stack runs.") var stackBuild = ".build/release"
    @Option(help: "stack: Python with PyYAML for scripts/compose-smoke.py (default: $TEST_PYTHON, else .venv/bin/python).") var python: String?
    @Option(help: "stack: the session arrival rates stepped through (sessions/s, comma-separated).") var stackRates = "5,10,20,40,80,160,320"
    @Option(help: "stack: seconds of load per rate step.") var stackStepSeconds = 10
    @Option(help: "stack: a setting for every service, KEY=VALUE (repeatable; the key must be in docker-compose.yml), to compare settings.")
    var stackSetting: [String] = []
    @Option(help: "stack: phones, each with an install account per app.") var stackUsers = 200
    @Option(help: "stack: the most populous cities whose weather the sessions open.") var stackCities = 50
    @Option(help: "stack: one session in this many also books a slot.") var stackBookingEvery = 20
    @Option(help: "stack: the p99 (ms) every journey step must stay under for a rate step to hold.") var stackP99Ms = 100.0

    func run() async throws {
        var table = ResultTable()
        let groups = Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if groups.contains("kafka") {
            let kafka = KafkaBench(brokers: brokers, count: count, size: size, referenceBinary: reference)
            progress("producing \(count) × \(size) B with the platform's producer and with rdkafka_performance")
            let (swiftProduce, referenceProduce, topics) = try await kafka.produce()
            table.add("producer (msgs/s) vs rdkafka_performance", swift: swiftProduce, reference: referenceProduce, target: "ratio >= 0.9")
            progress("consuming them back with the platform's consumer and with rdkafka_performance")
            let (swiftConsume, referenceConsume) = try await kafka.consume(topics: topics)
            table.add("consumer (msgs/s) vs rdkafka_performance", swift: swiftConsume, reference: referenceConsume, target: "ratio >= 0.9")
        }
        if groups.contains("outbox") {
            progress("relaying \(outboxCount) outbox rows")
            let outbox = OutboxBench(
                brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser,
                count: outboxCount)
            table.add("outbox relay, commit to broker ack (events/s)", swift: try await outbox.run(), reference: nil, target: ">= 5,000")
        }
        if groups.contains("consumer") {
            let bench = ConsumerBench(
                brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser,
                events: consumerEvents, psql: psql, batchSize: consumerBatchSize)
            let results = try await bench.run()
            let batch = String(format: "%.0f", results.averageBatch)
            table.add(
                "idempotent consumer, per-event upsert handler vs psql COPY of the same rows, \(batch) per transaction (events/s)",
                swift: results.perEventHandler, reference: results.referenceCopy, target: ">= 10,000 and ratio >= 0.5")
            table.add(
                "idempotent consumer, one-statement batch handler vs psql COPY of the same rows (events/s)",
                swift: results.batchHandler, reference: results.referenceCopy, target: ">= 10,000 and ratio >= 0.5")
            table.add(
                "the same, polling only once everything polled is applied (CONSUMER_POLLS_AHEAD=0) vs psql COPY (events/s)",
                swift: results.batchHandlerWithoutPollingAhead, reference: results.referenceCopy, target: "-")
        }
        if groups.contains("auth") {
            progress("auth: password checks at bcrypt cost \(bcryptCost) and access-token verifications")
            let auth = AuthBench(bcryptCost: UInt8(bcryptCost))
            table.add(
                "auth: password checks at bcrypt cost \(bcryptCost) (/s, bounds logins/s)", swift: await auth.passwordChecksPerSecond(),
                reference: nil, target: "-")
            table.add(
                "auth: access-token verifications (/s, per request in every service)", swift: try await auth.tokenVerificationsPerSecond(),
                reference: nil, target: "-")
        }
        if groups.contains("weather") {
            try await addWeatherRows(to: &table)
        }
        if groups.contains("places") {
            try await addPlacesRows(to: &table)
        }
        if groups.contains("warnings") {
            try await addWarningRows(to: &table)
        }
        if groups.contains("appointments") {
            try await addAppointmentRows(to: &table)
        }
        if groups.contains("analytics") {
            try await addAnalyticsRows(to: &table)
        }
        if !table.isEmpty { print(table.markdown(count: count, size: size)) }
        if groups.contains("stack") { print(try await stackReport()) }
    }
}

extension PlatformBench {
    func stackReport() async throws -> String {
        let rates = stackRates.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !rates.isEmpty, rates.allSatisfy({ $0 > 0 }) else { throw BenchError("--stack-rates: positive whole numbers, comma-separated") }
        var extraSettings: [String: String] = [:]
        for setting in stackSetting {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw BenchError("--stack-setting: KEY=VALUE, not \(setting)") }
            extraSettings[parts[0]] = parts[1]
        }
        let bench = StackBench(
            buildDirectory: URL(fileURLWithPath: stackBuild).standardizedFileURL.path,
            python: python ?? ProcessInfo.processInfo.environment["TEST_PYTHON"] ?? ".venv/bin/python", cataloguePath: catalogue,
            postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser, brokers: brokers, rates: rates,
            stepSeconds: stackStepSeconds, users: stackUsers, cityCount: stackCities,
            bookingEvery: max(1, stackBookingEvery), p99LimitMilliseconds: stackP99Ms, extraSettings: extraSettings)
        return StackReport(bench: bench, results: try await bench.run()).markdown()
    }

    func addAnalyticsRows(to table: inout ResultTable) async throws {
        let bench = AnalyticsBench(
            binary: analyticsBinary, brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser,
            events: analyticsEvents, largeEvents: analyticsLargeEvents, loadSeconds: loadSeconds, connections: connections)
        let results = try await bench.run()
        if let ingest = results.ingest, let health = results.health {
            table.add(
                "analytics: telemetry ingest, batches of 100 over HTTP to broker ack (events/s) vs GET /health (req/s)",
                swift: ingest.requestsPerSecond * 100, reference: health.requestsPerSecond, target: ">= 20,000 events/s")
            if ingest.non2xx > 0 { table.add("analytics: ingest answers other than 202", text: "\(ingest.non2xx)", target: "0") }
        }
        table.add(
            "analytics: aggregation of \(analyticsEvents) telemetry events from the topic (events/s)",
            swift: results.aggregationPerSecond, reference: nil, target: ">= 10,000")
        if let features = results.topFeatures, let home = results.home, let health = results.health {
            let size = "aggregates of \(analyticsLargeEvents) events, \(connections) connections"
            table.addLatency("analytics: top features page, 500 ms answer cache, \(size), vs GET /health (p50 / p99 ms)", features, reference: health)
            table.addLatency("analytics: home page, 500 ms answer cache, \(size), vs GET /health (p50 / p99 ms)", home, reference: health)
            for (uncachedFeatures, uncachedHome, load) in results.uncached {
                table.addLatency(
                    "analytics: top features page, no cache, \(load) connection(s) vs GET /health at \(connections) (p50 / p99 ms)", uncachedFeatures,
                    reference: health)
                table.addLatency(
                    "analytics: home page, no cache, \(load) connection(s) vs GET /health at \(connections) (p50 / p99 ms)", uncachedHome,
                    reference: health)
            }
            table.add(
                "analytics: top features / home page, cached (req/s)",
                text: String(format: "%.0f / %.0f", features.requestsPerSecond, home.requestsPerSecond), target: "p99 < 20 ms")
        }
    }

    func addWeatherRows(to table: inout ResultTable) async throws {
        let weather = WeatherBench(
            binary: weatherBinary, cataloguePath: catalogue, brokers: brokers, postgresHost: postgresHost,
            postgresPort: postgresPort, postgresUser: postgresUser, cities: weatherCities, loadSeconds: loadSeconds,
            connections: connections)
        let results = try await weather.run()
        table.add(
            "weather: full refresh of \(results.trackedCities) cities from a local fake Open-Meteo, to Postgres and broker ack (cities/s)",
            swift: results.refreshCitiesPerSecond, reference: nil, target: ">= 1,000")
        table.add(
            "weather: weather-fetcher's CPU per refreshed city over that refresh (ms, user and system from /proc)",
            text: String(format: "%.2f", results.refreshCPUMillisecondsPerCity), target: "<= 1 ms")
        table.add(
            "weather: one-letter prefix search, database time (ms, mean / worst of a-z)",
            text: String(format: "%.3f / %.3f", results.searchMilliseconds.mean, results.searchMilliseconds.max), target: "well under 1 ms")
        if let city = results.weather, let health = results.health {
            table.add(
                "weather: GET city weather, anonymous (5 s answer cache) vs GET /health, \(connections) connections (req/s)",
                swift: city.requestsPerSecond, reference: health.requestsPerSecond, target: "ratio >= 0.5")
            if let signedIn = results.weatherSignedIn {
                table.add(
                    "weather: GET city weather, 200 signed-in users (shared 5 s answer, cached favourites, recents written in batches) vs GET /health (req/s)",
                    swift: signedIn.requestsPerSecond, reference: health.requestsPerSecond, target: "ratio >= 0.5")
                table.addLatency(
                    "weather: GET city weather, signed-in vs GET /health (p50 / p99 ms)", signedIn, reference: health)
            }
            table.addLatency(
                "weather: GET city weather, anonymous vs GET /health (p50 / p99 ms)", city, reference: health)
            if city.non2xx + health.non2xx > 0 {
                progress("warning: \(city.non2xx + health.non2xx) non-2xx answers under load")
            }
        }
    }
}

extension PlatformBench {
    func addPlacesRows(to table: inout ResultTable) async throws {
        let bench = PlacesBench(
            binary: placesBinary, brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort,
            postgresUser: postgresUser, places: places, loadSeconds: loadSeconds, connections: connections)
        let results = try await bench.run()
        table.add(
            "places: import of \(places) places from a local fake Overpass, to PostGIS and broker ack (places/s)",
            swift: results.importPlacesPerSecond, reference: nil, target: "-")
        if let nearby = results.nearby, let health = results.health {
            table.add(
                "places: GET nearby (1 km, 50 per page, 200 users) among \(places) vs GET /health, \(connections) connections (req/s)",
                swift: nearby.requestsPerSecond, reference: health.requestsPerSecond, target: "ratio >= 0.5")
            table.addLatency(
                "places: GET nearby vs GET /health (p50 / p99 ms)", nearby, reference: health)
            if let postgis = results.nearbyPostGIS {
                table.add(
                    "places: the same nearby query answered by PostGIS per request (PLACES_NEARBY_SOURCE=postgis) vs GET /health (req/s)",
                    swift: postgis.requestsPerSecond, reference: health.requestsPerSecond, target: "-")
            }
            let non2xx = nearby.non2xx + health.non2xx + (results.nearbyPostGIS?.non2xx ?? 0)
            if non2xx > 0 { progress("warning: \(non2xx) non-2xx answers under load") }
        }
    }
}

func progress(_ text: String) {
    FileHandle.standardError.write(Data("[bench] \(text)\n".utf8))
}

extension PlatformBench {
    func addWarningRows(to table: inout ResultTable) async throws {
        let bench = WarningBench(
            binary: warningBinary, brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort,
            postgresUser: postgresUser, events: warningEvents, samples: warningSamples, fetchWaitMilliseconds: warningFetchWaitMs)
        let results = try await bench.run()
        table.add(
            "warnings: \(warningEvents) forecast events, each issuing a warning, consumed into Postgres (events/s)",
            swift: results.eventsPerSecond, reference: nil, target: "-")
        func percentiles(_ values: [Double]) -> String {
            String(format: "%.1f / %.1f", percentile(values, 0.5), percentile(values, 0.99))
        }
        let fetchWait = warningFetchWaitMs.map { "\($0) ms" } ?? "default"
        for (mark, values) in [
            ("acknowledged by the broker", results.latency.acknowledged), ("warning stored in Postgres", results.latency.stored),
            ("warning visible over HTTP", results.latency.visible),
        ] {
            table.add(
                "warnings: forecast event published → \(mark), \(warningSamples) one by one, fetch wait \(fetchWait) (p50 / p99 ms)",
                text: percentiles(values), target: "-")
        }
    }
}

extension PlatformBench {
    func addAppointmentRows(to table: inout ResultTable) async throws {
        let bench = AppointmentBench(
            binary: appointmentBinary, brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort,
            postgresUser: postgresUser, bookings: bookings, concurrency: bookingConcurrency, loadSeconds: loadSeconds,
            connections: connections)
        let results = try await bench.run()
        table.add(
            "appointments: \(bookings) bookings of distinct slots, \(bookingConcurrency) in flight, each with its outbox event (bookings/s)",
            swift: results.bookingsPerSecond, reference: nil, target: "-")
        table.add(
            "appointments: \(bookings) requests for one slot, \(bookingConcurrency) in flight: one booking, the rest 409 (conflicts/s)",
            swift: results.conflictsPerSecond, reference: nil, target: "-")
        if let slots = results.slots, let health = results.health {
            table.add(
                "appointments: GET a week of a partner's free slots (09:00-18:00, hourly; 1 s answer cache) vs GET /health, \(connections) connections (req/s)",
                swift: slots.requestsPerSecond, reference: health.requestsPerSecond, target: "ratio >= 0.5")
            table.addLatency(
                "appointments: GET a week of free slots vs GET /health (p50 / p99 ms)", slots, reference: health)
            if slots.non2xx + health.non2xx > 0 { progress("warning: \(slots.non2xx + health.non2xx) non-2xx answers under load") }
            if let horoscope = results.horoscope {
                table.add(
                    "readings: GET the daily horoscope, anonymous (encoded once per sign, day and language) vs GET /health, \(connections) connections (req/s)",
                    swift: horoscope.requestsPerSecond, reference: health.requestsPerSecond, target: "ratio >= 0.5")
                table.addLatency(
                    "readings: GET the daily horoscope vs GET /health (p50 / p99 ms)", horoscope, reference: health)
                if horoscope.non2xx > 0 { progress("warning: \(horoscope.non2xx) non-2xx horoscope answers under load") }
            }
        }
        table.add(
            "readings: \(bookings) tarot readings made and kept, \(bookingConcurrency) in flight (readings/s)",
            swift: results.tarotPerSecond, reference: nil, target: "-")
        if results.unexpectedAnswers > 0 { progress("warning: \(results.unexpectedAnswers) booking answers were not the expected 201 or 409") }
    }
}
