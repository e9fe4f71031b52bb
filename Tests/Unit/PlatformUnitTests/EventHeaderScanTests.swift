import Foundation
import Testing
import UnitTestSupport

@testable import PlatformEvents

/// The consumer reads every envelope's header by hand and decodes only the payload's bytes; these hold
/// that reading to Foundation's decoding of the same bytes, for envelopes as producers write them and for texts
/// that are not envelopes.
@Suite("platform: event headers read by hand against Foundation's decoder")
struct EventHeaderScanTests {
    struct Payload: Codable, Sendable, Equatable {
        var text: String
        var values: [Double]
        var nested: [String: Int]
    }

    /// The whole envelope as Foundation reads it: the reference for the header and the payload.
    static func foundation(_ bytes: [UInt8]) throws -> EventEnvelope<Payload> {
        try EventCoding.decoder.decode(EventEnvelope<Payload>.self, from: Data(bytes))
    }

    static let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "é", "→", "😀", "\u{1}", "{", "}", ",", ":"]

    static func text(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }.joined()
    }

    @Test("X2: 2,000 random envelopes give the same header and payload as Foundation's decoder")
    func randomEnvelopesMatchFoundation() throws {
        var random = SeededRandom(seed: 2034)
        for _ in 0..<2_000 {
            let payload = Payload(
                text: Self.text(&random),
                values: (0..<Int.random(in: 0..<4, using: &random)).map { _ in Double.random(in: -1e6...1e6, using: &random) },
                nested: [Self.text(&random): Int.random(in: -1_000...1_000, using: &random)])
            let envelope = EventEnvelope(
                type: EventType(Self.text(&random)), schemaVersion: Int.random(in: 1...9, using: &random),
                occurredAt: Date(timeIntervalSince1970: Double(Int.random(in: 0..<7_000_000_000_000, using: &random)) / 1_000),
                producer: Self.text(&random), key: Self.text(&random), payload: payload)
            let bytes = try envelope.encoded()
            let reference = try Self.foundation(bytes)
            let received = try ReceivedEvent(bytes: bytes)
            #expect(received.header.id == reference.id)
            #expect(received.header.type == reference.type)
            #expect(received.header.schemaVersion == reference.schemaVersion)
            #expect(received.header.occurredAt == reference.occurredAt)
            #expect(received.header.producer == reference.producer)
            #expect(received.header.key == reference.key)
            #expect(try received.payload(as: Payload.self) == reference.payload)
        }
    }

    @Test("X2: members in any order and spacing, unknown ones skipped, as Foundation reads them")
    func orderAndSpacing() throws {
        let text = """
             { "extra" : [1, {"a": null}, true] , "payload" : {"text":"t","values":[1.5],"nested":{}},
            "key":"k" ,"producer":"p","occurredAt":"2026-11-29T01:02:03Z","schemaVersion":2,"type":"x.y",
            "id":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8" }\t
            """
        let bytes = Array(text.utf8)
        let reference = try Self.foundation(bytes)
        let received = try ReceivedEvent(bytes: bytes)
        #expect(received.header.id == reference.id)
        #expect(received.header.occurredAt == reference.occurredAt)
        #expect(received.header.schemaVersion == 2)
        #expect(try received.payload(as: Payload.self) == reference.payload)
    }

    @Test("X2: every cut of an envelope, and fields missing or of another type, are refused as Foundation refuses them")
    func malformedEnvelopesAreRefused() throws {
        let bytes = try EventEnvelope(
            type: EventType("x.y"), producer: "p", key: "k", payload: Payload(text: "t", values: [1], nested: ["a": 1])
        ).encoded()
        for length in 0..<bytes.count {
            let cut = Array(bytes[0..<length])
            #expect((try? Self.foundation(cut)) == nil)
            #expect((try? ReceivedEvent(bytes: cut)) == nil, "cut at \(length)")
        }
        let header = #""id":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","type":"x","schemaVersion":1,"occurredAt":"2026-11-29T01:02:03Z""#
        let refused = [
            #"{\#(header),"producer":"p"}"#,  // no key
            #"{\#(header),"producer":"p","key":7}"#,  // key not a string
            #"{\#(header),"producer":null,"key":"k"}"#,
            #"{"id":"nope","type":"x","schemaVersion":1,"occurredAt":"2026-11-29T01:02:03Z","producer":"p","key":"k"}"#,
            #"{"id":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","type":"x","schemaVersion":1.5,"occurredAt":"2026-11-29T01:02:03Z","producer":"p","key":"k"}"#,
            #"{"id":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","type":"x","schemaVersion":1,"occurredAt":"yesterday","producer":"p","key":"k"}"#,
            #"{\#(header),"producer":"p","key":"k"} trailing"#,
            #"[\#(header)]"#,
        ]
        for text in refused {
            #expect((try? EventCoding.decoder.decode(EventHeader.self, from: Data(text.utf8))) == nil, "Foundation refuses \(text)")
            #expect((try? ReceivedEvent(bytes: Array(text.utf8))) == nil, "refused: \(text)")
        }
        // A header without a payload is an envelope; asking for its payload is the permanent error.
        let bare = try ReceivedEvent(bytes: Array(#"{\#(header),"producer":"p","key":"k"}"#.utf8))
        #expect(throws: EventDecodingError.self) { try bare.payload(as: Payload.self) }
    }

    @Test("X2: a header member or the payload given twice is refused (Foundation would take the first, a hand reader the last)")
    func repeatedMembersAreRefused() {
        let header = #""type":"x","schemaVersion":1,"occurredAt":"2026-11-29T01:02:03Z","producer":"p","key":"k""#
        let first = "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"
        let second = "6BA7B811-9DAD-11D1-80B4-00C04FD430C8"
        let refused = [
            #"{"id":"\#(first)",\#(header),"id":"\#(second)"}"#,
            #"{"id":"\#(first)",\#(header),"payload":{"a":1},"payload":{"a":2}}"#,
            #"{"id":"\#(first)",\#(header),"key":"other"}"#,
        ]
        for text in refused {
            #expect((try? ReceivedEvent(bytes: Array(text.utf8))) == nil, "refused: \(text)")
        }
        // Unknown members may repeat: they are skipped either way.
        #expect((try? ReceivedEvent(bytes: Array(#"{"id":"\#(first)",\#(header),"x":1,"x":2}"#.utf8))) != nil)
    }

    @Test("X2: a payload nested deeper than 512 levels is refused, not a stack overflow (a trap the crash guard could not catch)")
    func deepNestingIsRefused() throws {
        let header =
            #""id":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","type":"x","schemaVersion":1,"occurredAt":"2026-11-29T01:02:03Z","producer":"p","key":"k""#
        let deep = "{" + header + ",\"payload\":" + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}"
        #expect((try? ReceivedEvent(bytes: Array(deep.utf8))) == nil)
        let unknownDeep = "{" + header + ",\"x\":" + String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "}"
        #expect((try? ReceivedEvent(bytes: Array(unknownDeep.utf8))) == nil)
        let shallow = "{" + header + ",\"payload\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect((try? ReceivedEvent(bytes: Array(shallow.utf8))) != nil)
    }

    @Test("X2: 20,000 damaged envelopes and random byte strings are read or refused, never trapped on")
    func damagedBytesNeverTrap() throws {
        var random = SeededRandom(seed: 3434)
        let valid = try EventEnvelope(
            type: EventType("x.y"), producer: "p", key: "k", payload: Payload(text: "t\u{1}é", values: [1.5, -2e10], nested: ["a": 1])
        ).encoded()
        let alphabet = Array(#"{}[]":,\ -+.eE0123456789abcdefnultrsTZ"#.utf8) + [0x00, 0x80, 0xC3, 0xFF, 0x0A]
        var readable = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[index] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                    case 1: bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: index)
                    default: if bytes.count > 1 { bytes.remove(at: index) }
                    }
                }
            }
            if let event = try? ReceivedEvent(bytes: bytes) {
                readable += 1
                _ = try? event.payload(as: Payload.self)
            }
        }
        // Some damage leaves an envelope readable (a changed letter in a string), so both paths ran.
        #expect(readable > 0)
    }
}
