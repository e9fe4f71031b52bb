import Foundation
import Logging
import PlatformCore
import Synchronization
import Testing

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    /// Collects what the handler writes instead of standard error.
    final class Lines: Sendable {
        let written = Mutex<[String]>([])
        func append(_ line: String) { written.withLock { $0.append(line) } }
    }

    @Test("X4: each log call is one JSON object per line with time, level, logger, message, source and the metadata")
    func structuredLines() throws {
        let lines = Lines()
        var logger = Logger(label: "places-importer") { label in
            var handler = JSONLogHandler(label: label, write: { lines.append($0) })
            handler.logLevel = .trace
            return handler
        }
        logger[metadataKey: "userId"] = "u-1"
        logger[metadataKey: "message"] = "shadowed"
        logger.warning("provider said \"no\"\nretrying", metadata: ["attempt": "\(2)", "tiles": .array(["a", "b"]), "limits": ["rps": "1"]])
        let written = lines.written.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix("}\n"))
        #expect(!line.dropLast().contains("\n"), "a message with a newline still makes one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["logger"] as? String == "places-importer")
        #expect(object["message"] as? String == "provider said \"no\"\nretrying")
        #expect(object["userId"] as? String == "u-1")
        #expect(object["attempt"] as? String == "2")
        #expect(object["tiles"] as? [String] == ["a", "b"])
        #expect((object["limits"] as? [String: String]) == ["rps": "1"])
        #expect(object["source"] is String)
        let time = try #require(object["time"] as? String)
        #expect(time.count == "2026-11-23T07:30:00.123Z".count && time.hasSuffix("Z"))
        let parsed = try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: time))
        #expect(abs(parsed.timeIntervalSinceNow) < 60)
    }

    @Test("X4: control characters in values are escaped as JSON requires")
    func escaping() throws {
        let quoted = JSONString.quoted("tab\there \u{01} back\\slash")
        #expect(quoted == #""tab\there \u0001 back\\slash""#)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(decoded == ["tab\there \u{01} back\\slash"])
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
