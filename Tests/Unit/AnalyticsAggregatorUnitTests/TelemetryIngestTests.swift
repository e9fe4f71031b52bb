import Foundation
import Logging
import PlatformEvents
import Testing

@testable import AnalyticsAggregator

/// Ingesting a telemetry batch (N1) into a log in memory: each event judged on its own, the good ones stored with
/// ids derived from the app and the app's event id, a repeat within the batch counted once, and a batch with
/// nothing good or a log that does not take it refused as a whole.
@Suite("analytics-aggregator: TelemetryIngest")
struct TelemetryIngestTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let invalidKind = "kind must be one of install, feature_used, screen_viewed, city_viewed"

    static func input(_ fields: [String: Any]) throws -> TelemetryInput {
        var event: [String: Any] = ["id": UUID().uuidString, "occurredAt": now.ISO8601Format(), "deviceId": "device-1"]
        for (key, value) in fields { event[key] = value }
        return try JSONDecoder().decode(TelemetryInput.self, from: JSONSerialization.data(withJSONObject: event))
    }

    static func ingest(into log: MemoryTelemetryLog, naming: MemoryAccountNaming = MemoryAccountNaming()) -> TelemetryIngest {
        TelemetryIngest(
            log: log, naming: naming, rules: TelemetryRules(maxAge: 30 * 86_400, maxSkew: 300), logger: Logger(label: "telemetry-ingest-test"))
    }

    @Test("N1: good events are stored in order under derived ids, keyed by user; bad ones are reported by index")
    func storesTheGoodOnes() async throws {
        let log = MemoryTelemetryLog(), naming = MemoryAccountNaming()
        let install = try Self.input(["kind": "install", "platform": "ios", "appVersion": "1.0", "userId": "u-1"])
        let feature = try Self.input(["kind": "feature_used", "feature": "search"])
        let bad = try Self.input(["kind": "crashed"])
        let outcome = try await Self.ingest(into: log, naming: naming).ingest([install, bad, feature], app: .weather, now: Self.now)
        #expect(outcome.accepted == 2 && outcome.duplicates == 0)
        #expect(outcome.rejected == [TelemetryRejection(index: 1, code: "invalid_kind", message: Self.invalidKind)])
        let stored = log.events
        #expect(stored.map(\.payload.kind) == [.install, .featureUsed])
        #expect(stored.map(\.key) == ["p:\(try #require(naming.pseudonyms["u-1"]))", "d:device-1"])
        #expect(stored.allSatisfy { $0.type == EventTypes.telemetryRecorded && $0.producer == "analytics-aggregator" })
        let clientId = try #require(install.id.flatMap(UUID.init(uuidString:)))
        #expect(stored.first?.id == TelemetryIngest.eventId(app: "weather", clientEventId: clientId))
        #expect(stored.first?.occurredAt == Self.now)
    }

    @Test("N1: an event sent twice in one batch is stored once and counted as a duplicate")
    func duplicatesCountOnce() async throws {
        let log = MemoryTelemetryLog()
        let event = try Self.input(["kind": "screen_viewed", "screen": "home"])
        let outcome = try await Self.ingest(into: log).ingest([event, event, event], app: .places, now: Self.now)
        #expect(outcome.accepted == 3 && outcome.duplicates == 2 && outcome.rejected.isEmpty)
        #expect(log.events.count == 1)
    }

    @Test("N1: a batch with no valid event is refused with every event's problem, and nothing reaches the log")
    func noValidEvents() async throws {
        let log = MemoryTelemetryLog()
        let inputs = [try Self.input(["kind": "crashed"]), try Self.input(["kind": "feature_used"])]
        await #expect(
            throws: TelemetryRefusal.noValidEvents([
                TelemetryRejection(index: 0, code: "invalid_kind", message: Self.invalidKind),
                TelemetryRejection(index: 1, code: "missing_field", message: "feature_used needs feature (1 to 100 characters)"),
            ])
        ) { try await Self.ingest(into: log).ingest(inputs, app: .weather, now: Self.now) }
        #expect(log.appends.withLock { $0 } == 0)
    }

    @Test("N1: a log that does not take the batch is brokerUnavailable (the client sends it again)")
    func logDown() async throws {
        let log = MemoryTelemetryLog(isDown: true)
        let event = try Self.input(["kind": "city_viewed", "cityId": 1_609_350])
        await #expect(throws: TelemetryRefusal.brokerUnavailable) {
            try await Self.ingest(into: log).ingest([event], app: .weather, now: Self.now)
        }
        #expect(log.appends.withLock { $0 } == 1 && log.events.isEmpty)
    }

    @Test("U9: the kept topic names an account only by its pseudonym, never by its id or device; an erased account by nobody")
    func accountsByPseudonym() async throws {
        let log = MemoryTelemetryLog(), naming = MemoryAccountNaming(erased: ["gone-1"])
        let first = try Self.input(["kind": "feature_used", "feature": "search", "userId": "member-1", "deviceId": "phone-1"])
        let again = try Self.input(["kind": "feature_used", "feature": "map", "userId": "member-1", "deviceId": "phone-2"])
        let erased = try Self.input(["kind": "feature_used", "feature": "search", "userId": "gone-1"])
        _ = try await Self.ingest(into: log, naming: naming).ingest([first, again, erased], app: .weather, now: Self.now)
        let stored = log.events
        let pseudonym = try #require(naming.pseudonyms["member-1"])
        #expect(stored.prefix(2).map(\.payload.userId) == ["p:\(pseudonym)", "p:\(pseudonym)"])
        #expect(stored.prefix(2).map(\.key) == ["p:\(pseudonym)", "p:\(pseudonym)"])
        #expect(stored.allSatisfy { $0.payload.deviceId.isEmpty })
        let written = try stored.map { String(decoding: try $0.encoded(), as: UTF8.self) }.joined()
        for needle in ["member-1", "gone-1", "phone-1", "phone-2"] { #expect(!written.contains(needle), "\(needle)") }
        // The erased account's event counts, under a name no account has.
        let nobody = try #require(stored.last?.payload.userId)
        #expect(nobody.hasPrefix("p:") && !naming.pseudonyms.values.contains(String(nobody.dropFirst(2))))
        #expect(naming.pseudonyms["gone-1"] == nil)
    }

    @Test("U9: a batch whose accounts cannot be named is refused whole (store_unavailable), nothing stored")
    func namingDown() async throws {
        let log = MemoryTelemetryLog()
        let event = try Self.input(["kind": "feature_used", "feature": "search", "userId": "member-1"])
        await #expect(throws: TelemetryRefusal.storeUnavailable) {
            try await Self.ingest(into: log, naming: MemoryAccountNaming(isDown: true)).ingest([event], app: .weather, now: Self.now)
        }
        #expect(log.events.isEmpty)
        let answer = TelemetryErrors.answer(for: .storeUnavailable)
        #expect(answer.status == .serviceUnavailable && answer.code == "store_unavailable" && answer.headers[.retryAfter] == "1")
    }
}
