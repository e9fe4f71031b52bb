import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import Synchronization
import Testing
import UnitTestSupport

@testable import AnalyticsAggregator

/// The analytics service's parts that need no service around them: the sketch, days, the survey's arithmetic, app keys,
/// event ids, the rules of one event, and the answer when no broker takes a batch.
@Suite("analytics pure logic (N1, N2, N4)")
struct AnalyticsUnitTests {
    @Test("N2: HyperLogLog estimates within 3% from 1,000 to 200,000 distinct items, exactly 0 when empty, in any order")
    func hyperLogLog() {
        #expect(HyperLogLog().estimate == 0)
        for count in [1_000, 20_000, 200_000] {
            var sketch = HyperLogLog()
            for index in 0..<count { sketch.add("user-\(index)") }
            let error = abs(Double(sketch.estimate - count)) / Double(count)
            #expect(error < 0.03, "\(count): \(sketch.estimate)")
        }
        var forward = HyperLogLog(), backward = HyperLogLog(), repeated = HyperLogLog()
        for index in 0..<5_000 { forward.add("u\(index)") }
        for index in (0..<5_000).reversed() { backward.add("u\(index)") }
        for index in 0..<10_000 { repeated.add("u\(index % 5_000)") }
        #expect(forward == backward && forward == repeated)
        #expect(HyperLogLog(bytes: forward.registers) == forward)
        #expect(HyperLogLog(bytes: [1, 2, 3]) == nil)
        // The hash is fixed across processes (never Swift's seeded Hasher): a stored sketch stays valid.
        // The value is FNV-1a then murmur3's fmix64, computed independently (Python) when this test was written.
        #expect(HyperLogLog.hash("user-1") == 0x41a2_fca5_c684_01c5)
    }

    @Test("N2: an event's day is its UTC day")
    func utcDay() {
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: 0)).description == "1970-01-01")
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: 951_782_400)).description == "2000-02-29")
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: 1_795_996_799)).description == "2026-11-29")
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: 1_795_996_800)).description == "2026-11-30")
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: -5)).description == "1970-01-01")
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: .infinity)).description == "1970-01-01")
    }

    @Test("N4: points per service, below good under 75, stars from points, asking why at 3 stars or fewer")
    func surveyArithmetic() {
        #expect(HotelSurvey.score(Array(repeating: "excellent", count: 5)) == 100)
        #expect(HotelSurvey.score(["good", "fair", "poor", "excellent", "good"]) == 45)
        #expect(HotelSurvey.score(["good", "good"]) == nil)
        #expect(HotelSurvey.score(["good", "good", "good", "good", "superb"]) == nil)
        #expect(HotelSurvey.isBelowGood(points: 74) && !HotelSurvey.isBelowGood(points: 75))
        // "each star for every 100 pts": 0-99 points is no star.
        #expect([0, 99, 100, 245, 399, 400].map(HotelSurvey.suggestedStars) == [0, 0, 1, 2, 3, 4])
        #expect(HotelSurvey.asksWhy(stars: 0) && HotelSurvey.asksWhy(stars: 3) && !HotelSurvey.asksWhy(stars: 4))
        #expect(HotelSurvey.services.count == 4 && HotelSurvey.services.allSatisfy { $0.questions.count == 5 })
        let codes = Set((0..<1_000).map { _ in CouponCode.make() })
        #expect(codes.count == 1_000)
    }

    @Test("N1: app keys parse per app, several per app; unknown apps, short keys and a key for two apps refuse the setting")
    func appKeys() throws {
        let keys = try #require(AppKeys(parsing: "weather=aaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbb; places=cccccccccccccccc"))
        #expect(keys.app(for: "aaaaaaaaaaaaaaaa") == .weather && keys.app(for: "bbbbbbbbbbbbbbbb") == .weather)
        #expect(keys.app(for: "cccccccccccccccc") == .places && keys.app(for: "dddddddddddddddd") == nil)
        #expect(AppKeys(parsing: "chess=aaaaaaaaaaaaaaaa") == nil)
        #expect(AppKeys(parsing: "weather=short") == nil)
        #expect(AppKeys(parsing: "weather=aaaaaaaaaaaaaaaa;places=aaaaaaaaaaaaaaaa") == nil)
    }

    @Test("N1: the event id comes from the app and the app's id: the same twice, different across apps")
    func eventIds() {
        let client = UUID()
        #expect(TelemetryIngest.eventId(app: "weather", clientEventId: client) == TelemetryIngest.eventId(app: "weather", clientEventId: client))
        #expect(TelemetryIngest.eventId(app: "weather", clientEventId: client) != TelemetryIngest.eventId(app: "places", clientEventId: client))
    }

    @Test("N2: a day filter is YYYY-MM-DD in digits, of the calendar, 1970-2200; anything else is a 4xx, never a query")
    func dayFilter() throws {
        #expect(try AnalyticsAPI.day("2024-02-29", field: "from") == "2024-02-29")
        for text in ["2024-01-+1", "+024-01-01", "2024--1-01", "2024-1-011", "2023-02-29", "2024-13-01", "２０２４-01-01", ""] {
            let error = #expect(throws: APIError.self, "\(text)") { try AnalyticsAPI.day(text, field: "from") }
            #expect(error?.status == .badRequest && error?.details?["from"] != nil, "\(text)")
        }
        let early = #expect(throws: APIError.self) { try AnalyticsAPI.day("1969-12-31", field: "to") }
        #expect(early?.status == .unprocessableContent)
    }

    @Test("N1: each rule of an event has its own code, checked in the order the answer reports them")
    func eventRules() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let rules = TelemetryRules(maxAge: 30 * 86_400, maxSkew: 300)
        let good: [String: Any] = [
            "id": UUID().uuidString, "kind": "city_viewed", "occurredAt": "2027-01-15T08:00:00Z", "deviceId": "device-1",
            "userId": "user-1", "platform": "ios", "appVersion": "1.2.0", "cityId": 1_609_350, "cityName": "Bangkok",
        ]
        func code(_ changes: [String: Any?]) throws -> String? {
            var fields = good
            for (key, value) in changes { fields[key] = value }
            let input = try JSONDecoder().decode(TelemetryInput.self, from: JSONSerialization.data(withJSONObject: fields))
            switch rules.check(input, app: .weather, now: now) {
            case .success: return nil
            case .failure(let failure): return failure.code
            }
        }
        #expect(try code([:]) == nil)
        let long = String(repeating: "x", count: 129)
        let cases: [(String, [String: Any?])] = [
            ("wrong_type", ["cityId": "1609350"]), ("invalid_id", ["id": "not-a-uuid"]), ("invalid_id", ["id": nil]),
            ("invalid_kind", ["kind": "crashed"]), ("invalid_time", ["occurredAt": "yesterday"]),
            ("invalid_time", ["occurredAt": nil]), ("too_old", ["occurredAt": "2026-12-01T08:00:00Z"]),
            ("in_the_future", ["occurredAt": "2027-01-15T08:10:00Z"]), ("invalid_device", ["deviceId": ""]),
            ("invalid_device", ["deviceId": long]), ("invalid_user", ["userId": long]), ("invalid_platform", ["platform": "symbian"]),
            ("invalid_version", ["appVersion": String(repeating: "9", count: 33)]), ("invalid_city_name", ["cityName": ""]),
            ("missing_field", ["cityId": 0]), ("missing_field", ["kind": "feature_used"]), ("missing_field", ["kind": "screen_viewed"]),
            ("missing_field", ["kind": "install", "appVersion": nil]),
            // Several faults: the first rule in the order above names the event's problem.
            ("invalid_id", ["id": "x", "kind": "crashed", "deviceId": ""]), ("invalid_time", ["occurredAt": "soon", "platform": "symbian"]),
        ]
        for (expected, changes) in cases {
            #expect(try code(changes) == expected, "\(changes)")
        }
    }

    @Test("N1: a batch the broker does not take is 503 broker_unavailable with Retry-After (a broker address where nothing listens)")
    func brokerUnavailable() async throws {
        var configuration = KafkaProducerConfiguration(
            broker: KafkaBrokerConfiguration(bootstrapServers: "127.0.0.1:1", clientId: "analytics-no-broker"))
        configuration.messageTimeoutMilliseconds = 1_500
        let producer = try KafkaProducer(configuration: configuration, logger: Logger(label: "no-broker"))
        let ingest = TelemetryIngest(
            log: KafkaTelemetryLog(producer: producer, topic: "analytics.telemetry"), naming: MemoryAccountNaming(),
            rules: TelemetryRules(maxAge: 86_400, maxSkew: 300),
            logger: Logger(label: "no-broker"))
        let event =
            #"{"id": "\#(UUID())", "kind": "install", "occurredAt": "\#(Date().ISO8601Format())", "deviceId": "d", "platform": "ios", "appVersion": "1.0"}"#
        let input = try JSONDecoder().decode(TelemetryInput.self, from: Data(event.utf8))
        await #expect(throws: TelemetryRefusal.brokerUnavailable) { try await ingest.ingest([input], app: .weather) }
        let answer = TelemetryErrors.answer(for: .brokerUnavailable)
        #expect(answer.status == .serviceUnavailable && answer.code == "broker_unavailable" && answer.headers[.retryAfter] == "1")
        try? await producer.close(timeoutMilliseconds: 100)
    }

    @Test("N2: a feature prefix is taken literally by LIKE")
    func likePrefix() {
        #expect(StatsQueries.likePrefix("search_1%") == "search\\_1\\%%")
        #expect(StatsQueries.likePrefix("a\\b") == "a\\\\b%")
    }
}

/// The dashboard's answer cache: fresh answers within the moment, the previous one a little past it while one
/// read runs, and a wait for a new one long past it.
@Suite("analytics answer cache (N5)")
struct AnswerCacheTests {
    final class Counter: Sendable {
        let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }

    @Test("N5: one read per moment, the previous answer a little past it, a new one long past it")
    func cache() async throws {
        let clock = Mutex(ContinuousClock.now)
        let cache = AnswerCache<Int>(lifetime: .milliseconds(500)) { clock.withLock { $0 } }
        func advance(_ duration: Duration) { clock.withLock { $0 += duration } }
        let reads = Counter()
        let read: @Sendable () async throws -> Int = { reads.next() }
        #expect(try await cache.value(for: "k", read) == 1)
        advance(.milliseconds(400))
        #expect(try await cache.value(for: "k", read) == 1)
        // A little past the moment: the previous answer now, the new one once the background read is done.
        advance(.milliseconds(200))
        #expect(try await cache.value(for: "k", read) == 1)
        await cache.settle()
        #expect(try await cache.value(for: "k", read) == 2)
        // Long past it: the request waits for a new answer.
        advance(.seconds(5))
        #expect(try await cache.value(for: "k", read) == 3)
        #expect(try await cache.value(for: "other", read) == 4)
        let off = AnswerCache<Int>(lifetime: .zero)
        #expect(try await off.value(for: "k", read) == 5)
        #expect(try await off.value(for: "k", read) == 6)
    }

    @Test("N5: the live stream's home snapshot on a pool that is not running gives up after its read limit (the CI hang)")
    func snapshotOnStoppedPool() async throws {
        // A PostgresClient whose run() is not running: a lease on it waits, as on a pool stopped during shutdown.
        let configuration = PostgresConfiguration(
            host: "127.0.0.1", port: freePort(), username: "nobody", password: nil, database: "none", schema: "public", maxConnections: 1)
        let stats = StatsQueries(
            client: configuration.makeClient(logger: Logger(label: "stopped-pool")), exactUsersLimit: 10, logger: Logger(label: "t"))
        let snapshot = HomeSnapshot(stats: stats, maxAge: .milliseconds(100), readLimit: .milliseconds(300))
        // Bounded from outside too (20 s): without the read limit this test fails instead of hanging the run.
        let error = await #expect(throws: StepTimeout.self) { try await withTimeLimit(.seconds(20)) { try await snapshot.body() } }
        #expect(error?.limit == .milliseconds(300), "the snapshot's own limit, not the test's")
    }

    @Test("N5: a read that never answers gives its waiters 503 busy after the read limit, not a wait for good, cached or not")
    func stuckRead() async throws {
        // As when the service's pool stops under a read during shutdown: the read ignores cancellation and never
        // returns. Without the limit, a dashboard request (and the server's shutdown waiting for it) would wait for good.
        let parked = Mutex<[CheckedContinuation<Void, Never>]>([])
        let never: @Sendable () async throws -> Int = {
            await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
            return 0
        }
        defer { parked.withLock { $0.forEach { $0.resume() } } }
        for lifetime in [Duration.milliseconds(500), .zero] {
            let cache = AnswerCache<Int>(lifetime: lifetime, readLimit: .milliseconds(300))
            @Sendable func outcome() async -> String {
                do {
                    return "answer \(try await cache.value(for: "k", never))"
                } catch let error as APIError {
                    return "\(error.status.code) \(error.code) \(error.headers[.retryAfter] ?? "-")"
                } catch {
                    return "\(error)"
                }
            }
            // Bounded from outside too: without the read limit this test fails instead of hanging the run.
            let outcomes = try await withTimeLimit(.seconds(20)) {
                async let first = outcome()
                async let second = outcome()
                return await [first, second]
            }
            #expect(outcomes == ["503 busy 1", "503 busy 1"], "cache lifetime \(lifetime)")
            // The next request reads again.
            #expect(try await cache.value(for: "k") { 7 } == 7)
        }
    }

    @Test("N5, X3: the admin stream ends when the caller's token expires, and after ten minutes at most")
    func streamLifetime() {
        let now = Date()
        #expect(HomeStream.lifetime(until: now.addingTimeInterval(90), now: now) == .seconds(90))
        #expect(HomeStream.lifetime(until: now.addingTimeInterval(3_600), now: now) == .seconds(600))
        #expect(HomeStream.lifetime(until: now.addingTimeInterval(-5), now: now) == .zero)
        #expect(HomeStream.lifetime(until: nil, now: now) == .seconds(600))
    }
}
