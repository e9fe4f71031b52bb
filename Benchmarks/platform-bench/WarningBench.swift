import AsyncHTTPClient
import Foundation
import Logging
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// warning-detector measured as it runs: the release binary on throw-away Postgres and the broker.
/// - throughput: `events` forecast events for as many cities, each crossing the heat threshold (so each
///   issues a warning and an outbox event), published at once; timed until the consumer has applied all.
/// - latency: `samples` forecasts one after another, each timed from its publication until
///   `GET /v1/cities/{id}/warnings` shows its warning, with the broker's acknowledgement and the warning's
///   row in Postgres as intermediate marks.
struct WarningBench: ServiceBench {
    let binary: String
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let events: Int
    let samples: Int
    /// `KAFKA_FETCH_WAIT_MAX_MS` for the service; nil keeps its default.
    let fetchWaitMilliseconds: Int?

    struct Results: Sendable {
        var eventsPerSecond = 0.0
        var latency = Latency()
    }

    /// Milliseconds from publishing each sample until: the broker acknowledged it, the consumer stored its
    /// warning in Postgres, the HTTP route showed it.
    struct Latency: Sendable {
        var acknowledged: [Double] = []
        var stored: [Double] = []
        var visible: [Double] = []
    }

    func run() async throws -> Results {
        let logger = Logger(label: "bench")
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_warnings")
        let topics = ServiceTopics(
            ["WARNING_FORECASTS_TOPIC": "forecasts", "WARNING_USER_CITIES_TOPIC": "user-cities", "WARNING_WARNINGS_TOPIC": "warnings"],
            prefix: "bench")
        try await topics.create(partitions: 6, brokers: brokers)
        let port = freePort()
        let tokens = try TestTokens()
        var environment = serviceEnvironment(database: database, tokens: tokens).variables(httpPort: "\(port)", topics.byVariable).merging([
            "KAFKA_GROUP_ID": "bench-warnings-\(suffix)", "KAFKA_START_POSITION": "beginning",
            "DAILY_FORECAST_ENABLED": "false", "OUTBOX_IDLE_INTERVAL_MS": "20", "LOG_LEVEL": "warning",
        ]) { $1 }
        if let fetchWaitMilliseconds { environment["KAFKA_FETCH_WAIT_MAX_MS"] = "\(fetchWaitMilliseconds)" }
        let service = try startService(binary: binary, environment: environment)
        defer { service.stop() }
        try await service.waitReady(port: port)
        var results = Results()
        let configuration = databases.configuration(database: database, schema: "warning_detector")
        let producerConfiguration = KafkaProducerConfiguration(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"))
        let producer = try KafkaProducer(configuration: producerConfiguration, logger: logger)
        results.eventsPerSecond = try await withRunningClient(configuration.makeClient(logger: logger)) { client -> Double in
            progress("warning-detector: \(events) forecast events, each issuing a warning")
            let messages = try (1...events).map { try Self.message(cityId: $0, topic: topics["WARNING_FORECASTS_TOPIC"]) }
            let started = ContinuousClock.now
            for batch in stride(from: 0, to: messages.count, by: 1_000) {
                try await producer.send(Array(messages[batch..<min(messages.count, batch + 1_000)]))
            }
            while try await queryInt(client, "SELECT count(*)::int FROM processed_events") < events {
                try await Task.sleep(for: .milliseconds(20))
            }
            let perSecond = Double(events) / (ContinuousClock.now - started).seconds
            let warnings = try await queryInt(client, "SELECT count(*)::int FROM warnings")
            guard warnings == events else { throw BenchError("expected \(events) warnings, found \(warnings)") }
            return perSecond
        }
        progress("warning-detector: \(samples) forecasts one at a time, published → visible over HTTP")
        results.latency = try await withRunningClient(configuration.makeClient(logger: logger)) { client in
            var latency = Latency()
            for sample in 0..<samples {
                let cityId = 1_000_000 + sample
                let started = ContinuousClock.now
                func elapsed() -> Double { (ContinuousClock.now - started).seconds * 1_000 }
                try await producer.send(try Self.message(cityId: cityId, topic: topics["WARNING_FORECASTS_TOPIC"]))
                latency.acknowledged.append(elapsed())
                while try await queryInt(client, "SELECT count(*)::int FROM warnings WHERE city_id = \(cityId)") == 0 {
                    guard elapsed() < 30_000 else { throw BenchError("warning for city \(cityId) was never stored") }
                    try await Task.sleep(for: .milliseconds(1))
                }
                latency.stored.append(elapsed())
                while try await HTTPClient.shared.get(url: "http://127.0.0.1:\(port)/v1/cities/\(cityId)/warnings").get()
                    .body.map({ $0.readableBytes <= #"{"warnings":[]}"#.utf8.count }) ?? true
                {
                    guard elapsed() < 30_000 else { throw BenchError("warning for city \(cityId) never showed over HTTP") }
                    try await Task.sleep(for: .milliseconds(1))
                }
                latency.visible.append(elapsed())
            }
            return latency
        }
        try await producer.close()
        service.stop()
        try await databases.dropDatabase(database)
        return results
    }

    /// A forecast for a made-up city whose third hour is 36 °C (Severe heat).
    static func message(cityId: Int, topic: String) throws -> KafkaOutgoingMessage {
        let now = Date()
        let first = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
        let hours = (0..<48).map { index in
            ForecastHour(
                time: first.addingTimeInterval(Double(index) * 3_600), temperatureC: index == 2 ? 36 : 20, condition: .clear,
                description: "Clear sky", windSpeedKmh: 10, windGustKmh: 15, precipitationMm: 0, snowfallCm: 0, visibilityKm: 20)
        }
        let city = ForecastCity(
            id: cityId, name: "City \(cityId)", region: "Bench", countryCode: "XX", country: "Benchland",
            latitude: Double(cityId % 170) - 85, longitude: Double(cityId % 360) - 180, timeZone: "UTC")
        let envelope = EventEnvelope(
            type: EventTypes.forecastUpdated, occurredAt: now, producer: "weather-fetcher", key: String(cityId),
            payload: ForecastUpdated(
                city: city, provider: "bench", fetchedAt: now, currentTemperatureC: 20, currentCondition: .clear,
                currentDescription: "Clear sky", hours: hours))
        return KafkaOutgoingMessage(topic: topic, key: String(cityId), value: try envelope.encoded())
    }
}
