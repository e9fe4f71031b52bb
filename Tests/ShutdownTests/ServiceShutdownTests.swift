import Foundation
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PostgresNIO
import Synchronization
import TestSupport
import Testing

@testable import AppointmentBooker
@testable import PlacesImporter

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SIGTERM while a service is busy (X4): the built executables, started as operators start them, stop in an
/// orderly way with a consumer mid-stream and with an HTTP request in progress, and lose nothing.
@Suite("The built service executables stop gracefully with work in flight")
struct ServiceShutdownTests {
    /// Each run has a consumer group of its own: a group on the shared broker carries the state other tests
    /// left in it, and a consumer joining it can wait minutes for partitions.
    static func baseEnvironment(_ db: TestDatabase, tokens: TestTokens, port: Int, group: String) -> [String: String] {
        ServiceEnvironment(db, tokens: tokens).variables(
            httpPort: "\(port)",
            [
                "KAFKA_GROUP_ID": group, "METRICS_PORT": "0", "READING_KEY": TestSecrets.readingKey, "KAFKA_SESSION_TIMEOUT_MS": "6000",
                "LOG_LEVEL": "info",
            ])
    }

    @Test("X4: SIGTERM with a consumer mid-stream exits 0; after a restart every event is applied exactly once")
    func sigtermWithConsumerMidStream() async throws {
        let tokens = try TestTokens()
        let suffix = uniqueSuffix()
        let topics = ServiceTopics([
            "APPOINTMENT_PLACES_TOPIC": "places", "APPOINTMENT_USERS_TOPIC": "users", "APPOINTMENT_BOOKINGS_TOPIC": "bookings",
        ])
        try await topics.create(partitions: 3)
        let total = 5_000
        try await withProducer { producer in
            let messages = try (0..<total).map { index in
                let id = UUID()
                let envelope = EventEnvelope(
                    type: EventTypes.placeUpserted, producer: "places-importer", key: id.uuidString,
                    payload: PlaceUpserted(
                        placeId: id, name: "Shrine \(index)", category: .worship, latitude: 13.7 + Double(index) / 100_000, longitude: 100.5,
                        address: nil, openingHours: nil, phone: nil, website: nil, sources: ["osm:node/\(index)"]))
                return KafkaOutgoingMessage(topic: topics["APPOINTMENT_PLACES_TOPIC"], key: envelope.key, value: try envelope.encoded())
            }
            try await producer.send(messages)
        }
        try await withTestDatabase(schema: "appointment_booker", migrations: AppointmentBookerMigrations.all) { db in
            let count: @Sendable (String) async throws -> Int = { try await db.count($0) }
            let group = "shutdown-\(suffix)"
            var environment = Self.baseEnvironment(db, tokens: tokens, port: freePort(), group: group)
            environment.merge(topics.byVariable.merging(["CONSUMER_BATCH_SIZE": "200"]) { $1 }) { $1 }
            let first = try ServiceProcess(executable: "appointment-booker", environment: environment)
            let started = try await eventually(timeout: .seconds(60), interval: .milliseconds(20)) {
                (try? await count("SELECT count(*)::int FROM processed_events")) ?? 0 > 0
            }
            #expect(started, "the consumer never applied anything: \(first.standardError.suffix(2_000))")
            first.terminate()
            let status = try await first.waitForExit(timeout: .seconds(30))
            let appliedAtStop = try await count("SELECT count(*)::int FROM processed_events")
            #expect(status == 0, "exit status after SIGTERM: \(first.standardError.suffix(2_000))")
            #expect(appliedAtStop < total, "stopped mid-stream (\(appliedAtStop) of \(total) applied)")
            #expect(first.standardError.contains("shutting down") || first.standardError.contains("stopp"), "an orderly stop is logged")
            // An orderly stop is not a crash: nothing is left in flight for the crash guard to suspect.
            #expect(try await count("SELECT count(*)::int FROM consumer_attempts WHERE in_flight OR crashes > 0") == 0)

            environment["HTTP_PORT"] = "\(freePort())"
            let second = try ServiceProcess(executable: "appointment-booker", environment: environment)
            let finished = try await eventually(timeout: .seconds(120)) {
                (try? await count("SELECT count(*)::int FROM processed_events")) ?? 0 >= total
            }
            let appliedAfterRestart = try await count("SELECT count(*)::int FROM processed_events")
            #expect(finished, "the restarted service applied \(appliedAfterRestart) of \(total): \(second.standardError.suffix(6_000))")
            #expect(try await count("SELECT count(*)::int FROM processed_events") == total)
            #expect(try await count("SELECT count(*)::int FROM worship_places") == total, "nothing lost")
            second.terminate()
            #expect(try await second.waitForExit(timeout: .seconds(30)) == 0)
            // Each event inserts its place; applying one again would update the row. The service's sessions have
            // ended, so Postgres has flushed their row counts.
            let applied = try await eventually(timeout: .seconds(15)) {
                try await count("SELECT n_tup_ins::int FROM pg_stat_user_tables WHERE relid = 'worship_places'::regclass") == total
            }
            #expect(applied, "every event inserted its place")
            #expect(
                try await count("SELECT (n_tup_upd + n_tup_del)::int FROM pg_stat_user_tables WHERE relid = 'worship_places'::regclass") == 0,
                "nothing applied twice")
        }
    }

    @Test("X4 (P1): SIGTERM during an area import gives the area back: the next instance imports it at once, not an hour later")
    func sigtermDuringAreaImport() async throws {
        let tokens = try TestTokens()
        let requests = Mutex(0)
        let topics = ServiceTopics(["PLACES_TOPIC": "places", "PLACES_USERS_TOPIC": "users", "PLACES_REQUESTS_TOPIC": "place-requests"])
        try await topics.create(partitions: 1)
        let temple = #"{"type":"node","id":7001,"lat":13.7563,"lon":100.5018,"tags":{"amenity":"place_of_worship","name":"Wat Shutdown"}}"#
        try await withFakeHTTPServer({ request in
            guard request.path == "/api/interpreter" else { return .init(status: 404, body: "{}") }
            let first = requests.withLock { count in
                count += 1
                return count == 1
            }
            // The first import is slow: the service is told to stop while it waits.
            return .init(body: PlacesFixtures.overpass(elements: [temple]), delay: first ? .seconds(5) : .zero)
        }) { fake in
            try await withTestDatabase(schema: "places_importer", migrations: PlacesImporterMigrations.all) { db in
                let row: @Sendable () async throws -> (claimed: Bool, status: String?, runs: Int) = {
                    let rows = try await db.client.query(
                        "SELECT claimed_until > now(), last_status, runs FROM import_areas WHERE name = 'bangkok'", logger: db.logger)
                    for try await (claimed, status, runs) in rows.decode((Bool, String?, Int).self) { return (claimed, status, runs) }
                    return (false, nil, -1)
                }
                var environment = Self.baseEnvironment(db, tokens: tokens, port: freePort(), group: "shutdown-\(uniqueSuffix())")
                environment.merge(topics.byVariable) { $1 }
                environment.merge([
                    "PLACES_OVERPASS_BASE_URL": fake.baseURL, "PLACES_YELP_BASE_URL": fake.baseURL, "PLACES_ON_DEMAND": "false",
                    "PLACES_IMPORT_AREAS": "bangkok:13.70,100.45,13.80,100.55:worship", "PLACES_IMPORT_TICK_MS": "100",
                ]) { $1 }
                let first = try ServiceProcess(executable: "places-importer", environment: environment)
                let importing = try await eventually(timeout: .seconds(30), interval: .milliseconds(20)) { requests.withLock { $0 } == 1 }
                #expect(importing, "the import never asked Overpass: \(first.standardError.suffix(2_000))")
                #expect(try await row().claimed, "the import holds its claim while it runs")
                first.terminate()
                #expect(try await first.waitForExit(timeout: .seconds(30)) == 0, "exit status after SIGTERM: \(first.standardError.suffix(2_000))")
                let stopped = try await row()
                #expect(!stopped.claimed && stopped.status == "failed" && stopped.runs == 0, "given back, not counted as a run: \(stopped)")

                environment["HTTP_PORT"] = "\(freePort())"
                let second = try ServiceProcess(executable: "places-importer", environment: environment)
                let imported = try await eventually(timeout: .seconds(30)) { try await row().status == "succeeded" }
                let after = try await row()
                #expect(imported, "the next instance imported the area: \(after) \(second.standardError.suffix(2_000))")
                let places = try await db.client.query("SELECT count(*)::int FROM places WHERE name = 'Wat Shutdown'", logger: db.logger)
                var count = 0
                for try await value in places.decode(Int.self) { count = value }
                #expect(count == 1)
                second.terminate()
                #expect(try await second.waitForExit(timeout: .seconds(30)) == 0)
            }
        }
    }

    @Test("X4: SIGTERM during an HTTP request that waits on a provider: the request is answered, then the process exits 0")
    func sigtermWithRequestInFlight() async throws {
        let tokens = try TestTokens()
        let arrived = Mutex(false)
        let topics = ServiceTopics(["PLACES_TOPIC": "places", "PLACES_USERS_TOPIC": "users", "PLACES_REQUESTS_TOPIC": "place-requests"])
        try await topics.create(partitions: 1)
        try await withFakeHTTPServer({ request in
            guard request.path == "/search" else { return .init(status: 404, body: "{}") }
            arrived.withLock { $0 = true }
            // Nominatim thinks for two seconds: the service is told to stop meanwhile.
            return .init(body: PlacesFixtures.nominatimFound, delay: .seconds(2))
        }) { fake in
            try await withTestDatabase(schema: "places_importer", migrations: PlacesImporterMigrations.all) { db in
                let port = freePort()
                var environment = Self.baseEnvironment(db, tokens: tokens, port: port, group: "shutdown-\(uniqueSuffix())")
                environment.merge(topics.byVariable) { $1 }
                environment.merge(["PLACES_NOMINATIM_BASE_URL": fake.baseURL, "PLACES_ON_DEMAND": "false"]) { $1 }
                let run = try ServiceProcess(executable: "places-importer", environment: environment)
                let ready = try await eventually(timeout: .seconds(30)) { await httpStatus("http://127.0.0.1:\(port)/ready") == 200 }
                #expect(ready, "service did not become ready: \(run.standardError.suffix(2_000))")
                let bearer = "Bearer \(try await tokens.token(userId: "shutdown-user"))"
                let lookup = Task {
                    try await LoopbackHTTP.send(
                        "GET", "http://127.0.0.1:\(port)/v1/places/lookup?address=Rudi-Dutschke-Stra%C3%9Fe%2012%2C%20Berlin",
                        headers: ["Authorization": bearer])
                }
                #expect(try await eventually(timeout: .seconds(10), interval: .milliseconds(10)) { arrived.withLock { $0 } })
                run.terminate()
                let answer = try await lookup.value
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.text.contains("Betahaus"))
                let status = try await run.waitForExit(timeout: .seconds(30))
                #expect(status == 0, "exit status after SIGTERM: \(run.standardError.suffix(2_000))")
            }
        }
    }
}
