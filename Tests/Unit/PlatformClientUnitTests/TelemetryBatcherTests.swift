import AnalyticsContract
import Foundation
import PlatformClient
import Synchronization
import Testing

/// The analytics client's telemetry batcher (N1, X6): batches of up to 100, a batch sent again after growing pauses
/// while the service cannot take it, dropped after the last attempt, and a bounded queue.
@Suite("PlatformClient: the telemetry batcher")
struct TelemetryBatcherTests {
    let analytics = URL(string: "http://analytics.test")!

    func event(_ number: Int) -> TelemetryBatcher.Event {
        .init(
            id: String(format: "7f0c8e5e-0d55-4a57-9f3e-%012d", number), kind: .featureUsed, occurredAt: Date(), deviceId: "device-1",
            feature: "search")
    }

    func accepted(_ body: Data) -> String {
        let count = (try? JSONSerialization.jsonObject(with: body) as? [String: [Any]])?["events"]?.count ?? 0
        return #"{"accepted":\#(count),"duplicates":0,"rejected":[]}"#
    }

    @Test("250 events go as batches of 100, 100 and 50, each with the app's key")
    func batches() async throws {
        let transport = ScriptedTransport { _, request, body, _ in (.accepted, accepted(body)) }
        let batcher = TelemetryBatcher(client: Client(serverURL: analytics, transport: transport), appKey: "key-1", sleep: { _ in })
        for number in 0..<250 { await batcher.record(event(number)) }
        await batcher.flush()
        let sizes = await transport.sent.map { (try? JSONSerialization.jsonObject(with: $0.body) as? [String: [Any]])?["events"]?.count }
        #expect(sizes == [100, 100, 50])
        #expect(await batcher.tally == .init(accepted: 250, rejected: 0, dropped: 0))
        #expect(await batcher.queued == 0)
    }

    @Test("a 503 is sent again after pauses that double; the service's Retry-After comes first, within the longest pause")
    func retriesWithBackoff() async throws {
        let transport = ScriptedTransport(headers: { _, call in call == 4 ? ["Retry-After": "7"] : call == 5 ? ["Retry-After": "600"] : [:] }) {
            _, _, body, call in
            call < 6 ? (.serviceUnavailable, #"{"error":{"code":"broker_unavailable","message":"later"}}"#) : (.accepted, accepted(body))
        }
        let pauses = Mutex<[Duration]>([])
        var policy = TelemetryBatcher.Policy()
        policy.attempts = 6
        let batcher = TelemetryBatcher(
            client: Client(serverURL: analytics, transport: transport), appKey: "key-1", policy: policy,
            sleep: { pause in pauses.withLock { $0.append(pause) } })
        await batcher.record(event(1))
        await batcher.flush()
        #expect(pauses.withLock { $0 } == [.seconds(1), .seconds(2), .seconds(4), .seconds(7), .seconds(60)])
        #expect(await batcher.tally == .init(accepted: 1, rejected: 0, dropped: 0))
    }

    @Test("a batch is dropped after the last attempt, and the flush stops there")
    func dropsAfterBound() async throws {
        let transport = ScriptedTransport { _, _, _, _ in (.serviceUnavailable, #"{"error":{"code":"broker_unavailable","message":"down"}}"#) }
        var policy = TelemetryBatcher.Policy()
        policy.attempts = 3
        let batcher = TelemetryBatcher(client: Client(serverURL: analytics, transport: transport), appKey: "k", policy: policy, sleep: { _ in })
        for number in 0..<150 { await batcher.record(event(number)) }
        await batcher.flush()
        #expect(await transport.sent.count == 3)
        #expect(await batcher.tally == .init(accepted: 0, rejected: 0, dropped: 100))
        #expect(await batcher.queued == 50)
    }

    @Test("a batch the service refuses as a whole is not sent again: 422 counts as rejected, a wrong key as dropped")
    func permanentRefusals() async throws {
        let transport = ScriptedTransport { _, request, _, _ in
            request.headerFields[.init("X-App-Key")!] == "wrong"
                ? (.unauthorized, #"{"error":{"code":"unknown_app_key","message":"no"}}"#)
                : (.unprocessableContent, #"{"error":{"code":"no_valid_events","message":"no"}}"#)
        }
        let bad = TelemetryBatcher(client: Client(serverURL: analytics, transport: transport), appKey: "k", sleep: { _ in })
        await bad.record(event(1))
        await bad.flush()
        #expect(await bad.tally == .init(accepted: 0, rejected: 1, dropped: 0))
        let wrongKey = TelemetryBatcher(client: Client(serverURL: analytics, transport: transport), appKey: "wrong", sleep: { _ in })
        await wrongKey.record(event(2))
        await wrongKey.flush()
        #expect(await wrongKey.tally == .init(accepted: 0, rejected: 0, dropped: 1))
        #expect(await transport.sent.count == 2)
    }

    @Test("past the queue's limit the oldest events give way")
    func boundedQueue() async throws {
        let transport = ScriptedTransport { _, _, body, _ in (.accepted, accepted(body)) }
        var policy = TelemetryBatcher.Policy()
        policy.queueLimit = 10
        let batcher = TelemetryBatcher(client: Client(serverURL: analytics, transport: transport), appKey: "k", policy: policy, sleep: { _ in })
        for number in 0..<15 { await batcher.record(event(number)) }
        #expect(await batcher.queued == 10)
        await batcher.flush()
        let sent = try #require(await transport.sent.first.map { String(decoding: $0.body, as: UTF8.self) })
        #expect(!sent.contains("7f0c8e5e-0d55-4a57-9f3e-000000000004"))
        #expect(sent.contains("7f0c8e5e-0d55-4a57-9f3e-000000000005"))
        #expect(await batcher.tally == .init(accepted: 10, rejected: 0, dropped: 5))
    }

    @Test("a flush cancelled during a pause puts its batch back at the head of the queue")
    func cancelledPauseKeepsBatch() async throws {
        let transport = ScriptedTransport { _, _, _, _ in (.serviceUnavailable, #"{"error":{"code":"broker_unavailable","message":"later"}}"#) }
        let batcher = TelemetryBatcher(
            client: Client(serverURL: analytics, transport: transport), appKey: "k", sleep: { _ in throw CancellationError() })
        for number in 0..<150 { await batcher.record(event(number)) }
        await batcher.flush()
        #expect(await batcher.queued == 150)
        #expect(await batcher.tally == .init())
    }
}
