import Crypto
import Foundation
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example trace (X4): weather-fetcher and warning-detector run as operators run them (built
/// executables, real broker and Postgres, a fake Open-Meteo and a fake APNs over HTTP/2 and TLS), exporting
/// spans over OTLP/HTTP to a receiver on loopback.
///
/// A favourite has no push of its own: its trace runs from the request through the outbox and the broker into
/// warning-detector's handler and the statement that stores it. The push comes from the forecast that issues
/// a warning, so the second trace starts with the request that fetched that forecast (a city view) and runs
/// through the provider call, warning-detector's handler, the push delivery (which keeps the handler's span as
/// its parent in `push_deliveries.trace_parent`), the APNs call and the statement recording the answer. The
/// handler's own statements serve the batch's forecasts together and are in the batch's trace.
@Suite("Tracing from weather-fetcher to a push (X4)", .serialized)
struct TracingPushTests {
    @Test("X4: a favourite's trace reaches warning-detector's handler; a fetched forecast's trace reaches its warning's push")
    func favouriteAndPushTraces() async throws {
        let tokens = try TestTokens()
        let suffix = uniqueSuffix()
        // The two services' settings for one topic name the same one: weather-fetcher produces what warning-detector reads.
        let topics = ServiceTopics([
            "WEATHER_FORECASTS_TOPIC": "forecasts", "WARNING_FORECASTS_TOPIC": "forecasts",
            "WEATHER_WARNINGS_TOPIC": "warnings", "WARNING_WARNINGS_TOPIC": "warnings",
            "WEATHER_USER_CITIES_TOPIC": "user-cities", "WARNING_USER_CITIES_TOPIC": "user-cities",
            "WARNING_APPOINTMENTS_TOPIC": "appointments",
        ])
        try await topics.create(partitions: 2)
        let catalogue = try WeatherFixtures.writeCatalogue()
        defer { try? FileManager.default.removeItem(atPath: catalogue) }
        let certificate = try TestCertificate()
        defer { try? FileManager.default.removeItem(atPath: certificate.certificateFile) }
        let berlin = WeatherFixtures.berlin
        // 40-46 °C all day: a heat warning for Berlin.
        try await withFakeHTTPServer({ .init(body: OpenMeteoFake.answer(toQuery: $0.query, temperature: 42)) }) { provider in
            try await withFakeHTTPServer(tls: certificate, { _ in .init(headers: ["apns-id": UUID().uuidString], body: "") }) { apns in
                try await withFakeHTTPServer({ _ in .init(body: "{}") }) { receiver in
                    try await withTestDatabase(schema: "weather_fetcher", migrations: weatherFetcherMigrations) { weatherDB in
                        try await withTestDatabase(schema: "warning_detector", migrations: warningDetectorMigrations) { warningDB in
                            func environment(_ db: TestDatabase, port: Int) -> [String: String] {
                                ExportedSpans.serviceEnvironment(
                                    db: db, port: port, receiver: receiver, tokens: tokens,
                                    ["KAFKA_START_POSITION": "beginning", "LOG_LEVEL": "info"])
                            }
                            let weatherPort = freePort(), warningPort = freePort()
                            let weather = try ServiceProcess(
                                executable: "weather-fetcher",
                                environment: environment(weatherDB, port: weatherPort).merging(topics.byVariable) { $1 }.merging([
                                    "KAFKA_GROUP_ID": "weather-trace-\(suffix)", "WEATHER_CITY_CATALOGUE": catalogue,
                                    "OPEN_METEO_BASE_URL": provider.baseURL,
                                    "WEATHER_MAP_MIN_POPULATION": "100000000", "WEATHER_VIEW_CACHE_MS": "0",
                                    // Only the city view below fetches Berlin: the scheduler's refresh would start a trace of its own.
                                    "WEATHER_REFRESH_TICK_MS": "3600000",
                                ]) { $1 })
                            let warning = try ServiceProcess(
                                executable: "warning-detector",
                                environment: environment(warningDB, port: warningPort).merging(topics.byVariable) { $1 }.merging([
                                    "KAFKA_GROUP_ID": "warnings-trace-\(suffix)", "PUSH_BASE_URL": apns.baseURL,
                                    "PUSH_CA_FILE": certificate.certificateFile, "PUSH_TEAM_ID": "TEAM123456", "PUSH_KEY_ID": "KEY7654321",
                                    "PUSH_SIGNING_KEY": P256.Signing.PrivateKey().pemRepresentation, "PUSH_TOPIC": "com.example.weather",
                                    "PUSH_TICK_MS": "50",
                                    "DAILY_FORECAST_ENABLED": "false",
                                ]) { $1 })
                            defer {
                                weather.terminate()
                                warning.terminate()
                            }
                            for (name, port, process) in [("weather-fetcher", weatherPort, weather), ("warning-detector", warningPort, warning)] {
                                let ready = try await eventually(timeout: .seconds(90)) { await httpStatus("http://127.0.0.1:\(port)/ready") == 200 }
                                #expect(ready, "\(name) did not become ready: \(process.standardError.suffix(2_000))")
                            }
                            let user = UUID().uuidString
                            let bearer = try await tokens.token(userId: user, role: .user)
                            let deviceToken = (0..<2).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined().lowercased()
                            #expect(
                                try await Self.send("PUT", "http://127.0.0.1:\(warningPort)/v1/me/devices/\(deviceToken)", bearer: bearer, body: "{}")
                                    == 200)

                            // 1. The favourite: weather-fetcher's request -> outbox -> broker -> warning-detector's handler.
                            let favouriteTrace = ExportedSpans.newTraceId()
                            #expect(
                                try await Self.send(
                                    "PUT", "http://127.0.0.1:\(weatherPort)/v1/me/favourites/\(berlin.id)", bearer: bearer,
                                    traceParent: ExportedSpans.traceParent(favouriteTrace)) == 200)
                            let favouriteStored = try await eventually(timeout: .seconds(60)) {
                                try await warningDB.count("SELECT count(*)::int FROM favourites WHERE city_id = \(berlin.id)") == 1
                            }
                            #expect(favouriteStored, "warning-detector: \(warning.standardError.suffix(3_000))")
                            let favouriteSpans = try await ExportedSpans.waitFor(in: receiver, trace: favouriteTrace) { spans in
                                spans.contains { $0.service == "warning-detector" && $0.name == "handle favourite.added" }
                                    && spans.contains { $0.service == "warning-detector" && $0.name == "INSERT favourites" }
                                    && spans.contains { $0.service == "weather-fetcher" && $0.name == "INSERT outbox" }
                            }
                            #expect(favouriteSpans.passed, "spans of the favourite's trace: \(favouriteSpans.spans)")
                            // The handler's statement is a child of the handler's span, which continues the producer's.
                            let handler = favouriteSpans.spans.first { $0.name == "handle favourite.added" }
                            let statement = favouriteSpans.spans.first { $0.name == "INSERT favourites" }
                            #expect(handler != nil && statement?.parentSpanId == handler?.spanId)
                            #expect(favouriteSpans.spans.contains { $0.spanId == handler?.parentSpanId && $0.service == "weather-fetcher" })

                            // Log lines carry the ids of the span they were written in: the request's line, one of its spans.
                            let loggedSpan = Self.spanId(onLineOf: weather.standardError, trace: favouriteTrace)
                            #expect(
                                loggedSpan.map { id in favouriteSpans.spans.contains { $0.spanId == id } } == true,
                                "weather-fetcher's lines of \(favouriteTrace) name span \(loggedSpan ?? "none")")

                            // 2. A city view fetches Berlin's forecast; the warning it issues is pushed, all in that trace.
                            let forecastTrace = ExportedSpans.newTraceId()
                            #expect(
                                try await Self.send(
                                    "GET", "http://127.0.0.1:\(weatherPort)/v1/cities/\(berlin.id)/weather", bearer: bearer,
                                    traceParent: ExportedSpans.traceParent(forecastTrace)) == 200)
                            let pushed = try await eventually(timeout: .seconds(60)) {
                                apns.requests.contains { $0.path.lowercased() == "/3/device/\(deviceToken)" }
                            }
                            #expect(pushed, "no push reached the fake APNs; warning-detector: \(warning.standardError.suffix(3_000))")
                            let stored = try await warningDB.text("SELECT max(trace_parent) FROM push_deliveries")
                            #expect(stored?.contains("-\(forecastTrace)-") == true, "push_deliveries.trace_parent: \(stored ?? "none")")
                            let forecastSpans = try await ExportedSpans.waitFor(in: receiver, trace: forecastTrace) { spans in
                                ["handle forecast.updated", "push send", "POST apns", "UPDATE push_deliveries"].allSatisfy { name in
                                    spans.contains { $0.service == "warning-detector" && $0.name == name }
                                } && spans.contains { $0.service == "weather-fetcher" && $0.kind == "client" && $0.name.hasPrefix("GET ") }
                                    // The warning's event, written for the batch's forecasts together, keeps the forecast's trace
                                    // back into weather-fetcher's warnings consumer.
                                    && spans.contains { $0.service == "weather-fetcher" && $0.name == "handle warning.issued" }
                            }
                            #expect(forecastSpans.passed, "spans of the forecast's trace: \(forecastSpans.spans)")
                            // The send's span continues the handler's span that decided the delivery.
                            let forecastHandler = forecastSpans.spans.first { $0.name == "handle forecast.updated" }
                            #expect(forecastSpans.spans.first { $0.name == "push send" }?.parentSpanId == forecastHandler?.spanId)
                            // The consumer's lines carry its batch's trace: "warning issued" was written in the forecasts
                            // batch's span, which links to the forecast's trace.
                            let issuedLine = warning.standardError.split(separator: "\n").first { $0.contains("\"warning issued\"") }
                            let batchTrace = issuedLine.flatMap { Self.value(of: "trace_id", in: String($0)) }
                            let batchSpans = ExportedSpans.all(in: receiver).filter { $0.traceId == batchTrace }
                            #expect(
                                batchSpans.contains { $0.name == "\(topics["WARNING_FORECASTS_TOPIC"]) process" && $0.kind == "consumer" },
                                "the 'warning issued' line's trace \(batchTrace ?? "none") has \(batchSpans)")
                            // Outside any trace nothing is traced: the relay's polls made no statement spans of their own.
                            #expect(!ExportedSpans.all(in: receiver).contains { $0.name == "SELECT outbox" && $0.parentSpanId == nil })
                        }
                    }
                }
            }
        }
    }

    /// The `span_id` on the first log line (JSON) of `trace` in `log`.
    static func spanId(onLineOf log: String, trace: String) -> String? {
        log.split(separator: "\n").first { $0.contains("\"trace_id\":\"\(trace)\"") }.flatMap { value(of: "span_id", in: String($0)) }
    }

    /// A string field of a JSON log line.
    static func value(of field: String, in line: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object[field] as? String
    }

    static func send(_ method: String, _ url: String, bearer: String, body: String? = nil, traceParent: String? = nil) async throws -> Int {
        var headers = ["Authorization": "Bearer \(bearer)"]
        if let traceParent { headers["traceparent"] = traceParent }
        if body != nil { headers["Content-Type"] = "application/json" }
        return try await LoopbackHTTP.send(method, url, headers: headers, body: body.map { Data($0.utf8) }).status
    }
}
