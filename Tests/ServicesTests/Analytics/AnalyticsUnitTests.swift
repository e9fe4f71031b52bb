import Foundation
import Synchronization
import Testing

@testable import AnalyticsAggregator

/// The analytics service's pure parts: the sketch, days, the survey's arithmetic, app keys, event ids.
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
        #expect(HyperLogLog.hash("user-1") == HyperLogLog.hash("user-1"))
    }

    @Test("N2: an event's day is its UTC day")
    func utcDay() {
        #expect(UTCDay.of(Date(timeIntervalSince1970: 0)) == "1970-01-01")
        #expect(UTCDay.of(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29")
        #expect(UTCDay.of(Date(timeIntervalSince1970: 1_795_996_799)) == "2026-11-29")
        #expect(UTCDay.of(Date(timeIntervalSince1970: 1_795_996_800)) == "2026-11-30")
        #expect(UTCDay.of(Date(timeIntervalSince1970: -5)) == "1970-01-01")
        #expect(UTCDay.of(Date(timeIntervalSince1970: .infinity)) == "1970-01-01")
    }

    @Test("N4: points per service, below good under 75, stars from points, asking why at 3 stars or fewer")
    func surveyArithmetic() {
        #expect(HotelSurvey.score(Array(repeating: "excellent", count: 5)) == 100)
        #expect(HotelSurvey.score(["good", "fair", "poor", "excellent", "good"]) == 45)
        #expect(HotelSurvey.score(["good", "good"]) == nil)
        #expect(HotelSurvey.score(["good", "good", "good", "good", "superb"]) == nil)
        #expect(HotelSurvey.isBelowGood(points: 74) && !HotelSurvey.isBelowGood(points: 75))
        #expect([0, 99, 100, 245, 399, 400].map(HotelSurvey.suggestedStars) == [1, 1, 1, 2, 3, 4])
        #expect(HotelSurvey.asksWhy(stars: 3) && !HotelSurvey.asksWhy(stars: 4))
        #expect(HotelSurvey.services.count == 4 && HotelSurvey.services.allSatisfy { $0.questions.count == 5 })
        let codes = Set((0..<1_000).map { _ in CouponCode.make() })
        #expect(codes.count == 1_000)
    }

    @Test("N1: app keys parse per app, several per app; unknown apps, short keys and a key for two apps refuse the setting")
    func appKeys() throws {
        let keys = try #require(AppKeys(parsing: "weather=aaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbb; places=cccccccccccccccc"))
        #expect(keys.app(for: "aaaaaaaaaaaaaaaa") == "weather" && keys.app(for: "bbbbbbbbbbbbbbbb") == "weather")
        #expect(keys.app(for: "cccccccccccccccc") == "places" && keys.app(for: "dddddddddddddddd") == nil)
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
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
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
}
