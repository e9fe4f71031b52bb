import Foundation
import PlatformEvents
import PlatformPostgres
import Testing

@Suite("Event envelope")
struct EventEnvelopeTests {
    struct Payload: Codable, Sendable, Equatable {
        var cityId: Int
        var temperature: Double
    }

    @Test("X2: an envelope survives encoding with its id, type, time and payload")
    func roundTrip() throws {
        let occurredAt = Date(timeIntervalSince1970: 1_700_000_000.123)
        let envelope = EventEnvelope(
            type: EventTypes.forecastUpdated, occurredAt: occurredAt, producer: "weather-fetcher", key: "42",
            payload: Payload(cityId: 42, temperature: 21.5))
        let received = try ReceivedEvent(bytes: try envelope.encoded())
        #expect(received.header.id == envelope.id)
        #expect(received.header.type == EventTypes.forecastUpdated)
        #expect(received.header.schemaVersion == 1)
        #expect(abs(received.header.occurredAt.timeIntervalSince(occurredAt)) < 0.001)
        #expect(try received.payload(as: Payload.self) == Payload(cityId: 42, temperature: 21.5))
    }

    @Test("X2: bytes that are not an envelope, or a payload of another shape, are permanent errors")
    func undecodableIsPermanent() throws {
        #expect(throws: EventDecodingError.self) { try ReceivedEvent(bytes: Array("[1,2]".utf8)) }
        let other = EventEnvelope(type: EventType("x"), producer: "p", key: "k", payload: ["a": 1])
        let received = try ReceivedEvent(bytes: try other.encoded())
        #expect(throws: EventDecodingError.self) { try received.payload(as: Payload.self) }
    }

    @Test("X2: event ids are read as Foundation reads them, in either case; anything else in `id` is a permanent error")
    func headerIds() throws {
        for _ in 0..<500 {
            let id = UUID()
            for text in [id.uuidString, id.uuidString.lowercased()] {
                let json =
                    #"{"id":"\#(text)","type":"t","schemaVersion":1,"occurredAt":"2026-11-24T10:00:00Z","producer":"p","key":"k","payload":{}}"#
                #expect(try ReceivedEvent(bytes: Array(json.utf8)).header.id == id)
            }
        }
        for bad in [
            "", "x", String(repeating: "0", count: 36), "0000000-00000-0000-0000-000000000000", "g0000000-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-0000000000000", "00000000-0000-0000-0000-00000000000é",
        ] {
            let json = #"{"id":"\#(bad)","type":"t","schemaVersion":1,"occurredAt":"2026-11-24T10:00:00Z","producer":"p","key":"k","payload":{}}"#
            #expect(throws: EventDecodingError.self, "\(bad)") { try ReceivedEvent(bytes: Array(json.utf8)) }
        }
    }

    @Test("X1: every topic has a distinct name, a dead-letter topic and at least one event type")
    func catalogueIsConsistent() {
        let names = TopicCatalogue.all.map(\.name)
        #expect(Set(names).count == names.count)
        let types = TopicCatalogue.all.flatMap(\.eventTypes)
        #expect(Set(types).count == types.count, "an event type travels on one topic only")
        #expect(TopicCatalogue.allWithDeadLetters.count == 2 * names.count)
        #expect(TopicCatalogue.all.allSatisfy { !$0.eventTypes.isEmpty && $0.deadLetterName == "\($0.name).dlq" })
    }

    @Test("X2: retry delays double up to the cap")
    func retryDelays() {
        let policy = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(100), maxDelay: .milliseconds(350))
        #expect((1...4).map { policy.delay(after: $0) } == [.milliseconds(100), .milliseconds(200), .milliseconds(350), .milliseconds(350)])
    }
}
