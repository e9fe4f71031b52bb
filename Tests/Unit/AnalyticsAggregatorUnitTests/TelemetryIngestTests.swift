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

    static func ingest(into log: MemoryTelemetryLog) -> TelemetryIngest {
        TelemetryIngest(log: log, rules: TelemetryRules(maxAge: 30 * 86_400, maxSkew: 300), logger: Logger(label: "telemetry-ingest-test"))
    }

    @Test("N1: good events are stored in order under derived ids, keyed by user; bad ones are reported by index")
    func storesTheGoodOnes() async throws {
        let log = MemoryTelemetryLog()
        let install = try Self.input(["kind": "install", "platform": "ios", "appVersion": "1.0", "userId": "u-1"])
        let feature = try Self.input(["kind": "feature_used", "feature": "search"])
        let bad = try Self.input(["kind": "crashed"])
        let outcome = try await Self.ingest(into: log).ingest([install, bad, feature], app: "weather", now: Self.now)
        #expect(outcome.accepted == 2 && outcome.duplicates == 0)
        #expect(outcome.rejected == [TelemetryRejection(index: 1, code: "invalid_kind", message: Self.invalidKind)])
        let stored = log.events
        #expect(stored.map(\.payload.kind) == ["install", "feature_used"])
        #expect(stored.map(\.key) == ["u:u-1", "d:device-1"])
        #expect(stored.allSatisfy { $0.type == EventTypes.telemetryRecorded && $0.producer == "analytics-aggregator" })
        let clientId = try #require(install.id.flatMap(UUID.init(uuidString:)))
        #expect(stored.first?.id == TelemetryIngest.eventId(app: "weather", clientEventId: clientId))
        #expect(stored.first?.occurredAt == Self.now)
    }

    @Test("N1: an event sent twice in one batch is stored once and counted as a duplicate")
    func duplicatesCountOnce() async throws {
        let log = MemoryTelemetryLog()
        let event = try Self.input(["kind": "screen_viewed", "screen": "home"])
        let outcome = try await Self.ingest(into: log).ingest([event, event, event], app: "places", now: Self.now)
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
        ) { try await Self.ingest(into: log).ingest(inputs, app: "weather", now: Self.now) }
        #expect(log.appends.withLock { $0 } == 0)
    }

    @Test("N1: a log that does not take the batch is brokerUnavailable (the client sends it again)")
    func logDown() async throws {
        let log = MemoryTelemetryLog(isDown: true)
        let event = try Self.input(["kind": "city_viewed", "cityId": 1_609_350])
        await #expect(throws: TelemetryRefusal.brokerUnavailable) {
            try await Self.ingest(into: log).ingest([event], app: "weather", now: Self.now)
        }
        #expect(log.appends.withLock { $0 } == 1 && log.events.isEmpty)
    }
}
