import Foundation
import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

@Suite("Event pipeline: pure rules")
struct PipelineUnitTests {
    @Test("X2: permanent, transient and unknown failures are told apart")
    func failureClassification() {
        #expect(EventFailure.classify(EventDecodingError(reason: "bad")) == .permanent)
        #expect(EventFailure.classify(StepTimeout(limit: .seconds(1))) == .transient)
        #expect(EventFailure.classify(CancellationError()) == .transient)
        struct HandlerBug: Error {}
        #expect(EventFailure.classify(HandlerBug()) == .unknown)
    }

    @Test("X2: values from outside become Ints without trapping")
    func roundedClampedInt() {
        #expect(2.5.roundedClampedInt == 3)
        #expect((-0.4).roundedClampedInt == 0)
        #expect(Double.nan.roundedClampedInt == 0)
        #expect(Double.infinity.roundedClampedInt == Int.max)
        #expect((-Double.infinity).roundedClampedInt == Int.min)
        #expect(1e300.roundedClampedInt == Int.max)
        #expect((-1e300).roundedClampedInt == Int.min)
        #expect(9_223_372_036_854_775_807.0.roundedClampedInt == Int.max)
        #expect((-9_223_372_036_854_775_808.0).roundedClampedInt == Int.min)
    }

    @Test("X2: provider error messages are stored without NUL characters and bounded")
    func storableText() {
        #expect("bad\u{0}gateway".storableText() == "badgateway")
        #expect(String(repeating: "x", count: 5_000).storableText().count == 2_000)
        #expect("fine".storableText() == "fine")
    }

    @Test("X2: an event dated outside 1970...2200 is refused before any handler (PostgresNIO traps binding year 294277)")
    func eventDatesOutOfRangeArePermanent() throws {
        let far = EventEnvelope(
            type: EventType("test.far"), occurredAt: Date(timeIntervalSince1970: 9_400_000_000_000), producer: "tests", key: "k",
            payload: ["x": "y"])
        #expect(throws: EventDecodingError.self) { try ReceivedEvent(bytes: try far.encoded()) }
        let near = EventEnvelope(type: EventType("test.near"), producer: "tests", key: "k", payload: ["x": "y"])
        #expect(throws: Never.self) { try ReceivedEvent(bytes: try near.encoded()) }
    }
}

@Suite("Event dates: the fast path reads what Foundation reads")
struct EventDateTests {
    @Test("X2: envelope dates decode to the same instant as Foundation's ISO 8601 parser")
    func fastDateParserMatchesFoundation() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let plain = Date.ISO8601FormatStyle()
        for text in [
            "2026-11-23T18:05:00.123Z", "1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2100-12-31T12:00:00.5Z",
            "1999-12-31T23:59:59.000001Z", "2026-03-29T01:30:00.250Z",
        ] {
            let fast = try #require(ISO8601Fast.parse(text))
            let foundation = try style.parse(text)
            #expect(abs(fast.timeIntervalSince(foundation)) < 0.000_001, "\(text): \(fast) vs \(foundation)")
        }
        let whole = try #require(ISO8601Fast.parse("2026-11-23T18:05:00Z"))
        #expect(whole == (try plain.parse("2026-11-23T18:05:00Z")))
        for malformed in ["2026-11-23T18:05:00+01:00", "2026-13-01T00:00:00Z", "2026-11-23 18:05:00Z", "2026-11-23T18:05:00.Z", "x"] {
            #expect(ISO8601Fast.parse(malformed) == nil, "\(malformed)")
        }
    }
}

@Suite("Statement spans' names (X4)")
struct StatementSpanNameTests {
    @Test("X4: a statement's span is named by its verb and first table, as OpenTelemetry's database conventions say")
    func names() {
        #expect(StatementSpan.summary(of: "INSERT INTO outbox (event_id) VALUES ($1)").name == "INSERT outbox")
        #expect(StatementSpan.summary(of: "\n  UPDATE push_deliveries SET x = 1").name == "UPDATE push_deliveries")
        #expect(StatementSpan.summary(of: "DELETE FROM devices WHERE token = $1").table == "devices")
        #expect(StatementSpan.summary(of: "SELECT count(*)::int FROM favourites WHERE a = $1").name == "SELECT favourites")
        #expect(StatementSpan.summary(of: "select 1").name == "SELECT")
        #expect(StatementSpan.summary(of: "WITH x AS (SELECT 1) SELECT * FROM x").name == "WITH")
        #expect(StatementSpan.summary(of: "   ").name == "postgresql")
        #expect(StatementSpan.summary(of: "UPDATE").name == "UPDATE")
    }
}
