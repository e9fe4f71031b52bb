import Foundation
import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

/// The hand-written JSON reader and writer used on hot paths against Foundation's: what one writes the
/// other reads back, numbers and dates come out the same, and malformed text throws instead of trapping.
@Suite("platform: hand-written JSON against Foundation's")
struct HandWrittenJSONTests {
    static func scanDouble(_ text: String) throws -> Double {
        var scanner = JSONScanner(Array(text.utf8))
        return try scanner.double()
    }

    @Test("numbers as providers write them read as the standard library reads them")
    func numbersMatchStandardLibrary() throws {
        var random = SeededRandom(seed: 34)
        var texts = ["0", "-0", "12", "4.6", "-12.25", "1009.8", "0.0012", "1e3", "-2.5E-4", "123456789012345678901234", "0.1", "3.14159265358979"]
        for _ in 0..<5_000 {
            let value = Double.random(in: -2_000...2_000, using: &random)
            let digits = Int.random(in: 0...6, using: &random)
            texts.append(String(format: "%.\(digits)f", value))
            texts.append("\(value)")
        }
        for text in texts {
            #expect(try Self.scanDouble(text) == Double(text), "\(text)")
        }
        for bad in ["", "-", ".5", "1.", "1e", "abc", "1e999"] {
            #expect(throws: JSONScanner.Malformed.self, "\(bad)") { try Self.scanDouble(bad) }
        }
    }

    @Test("a document written by JSONWriter reads back with JSONSerialization and JSONScanner alike")
    func writerAndScannerAgree() throws {
        var json = JSONWriter()
        json.beginObject()
        json.member("text", "quote \" backslash \\ newline \n tab \t bell \u{7} thai ไทย")
        json.member("count", -42)
        try json.member("ratio", 0.1)
        try json.member("missing", nil)
        json.key("list")
        json.beginArray()
        try json.number(1.5)
        json.null()
        json.bool(true)
        json.beginObject()
        json.endObject()
        json.endArray()
        json.endObject()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(object["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} thai ไทย")
        #expect(object["missing"] == nil && (object["list"] as? [Any])?.count == 4)
        var scanner = JSONScanner(json.bytes)
        try scanner.beginObject()
        #expect(try scanner.nextKey() == "text")
        #expect(try scanner.string() == "quote \" backslash \\ newline \n tab \t bell \u{7} thai ไทย")
        #expect(try scanner.nextKey() == "count")
        #expect(try scanner.integer() == -42)
        #expect(try scanner.nextKey() == "ratio")
        #expect(try scanner.double() == 0.1)
        #expect(try scanner.nextKey() == "list")
        try scanner.skipValue()
        #expect(try scanner.nextKey() == nil)
        #expect(scanner.isAtEnd)
        #expect(throws: JSONWriter.NotFinite.self) {
            var writer = JSONWriter()
            try writer.member("temperature", .nan)
        }
    }

    @Test("a cut or bent document throws at every length, never traps")
    func malformedThrows() throws {
        let text = Array(#"{"a":[1,2.5,null,"x\u00e9\"y"],"b":{"c":true,"d":-1e-3},"e":"\ud83d\ude00"}"#.utf8)
        for length in 0..<text.count {
            #expect(throws: (any Error).self, "\(length) bytes") {
                var scanner = JSONScanner(Array(text[..<length]))
                try scanner.skipValue()
            }
        }
        var whole = JSONScanner(text)
        try whole.skipValue()
        #expect(whole.isAtEnd)
        var escaped = JSONScanner(Array(#""x\u00e9\"y\ud83d\ude00""#.utf8))
        #expect(try escaped.string() == "xé\"y😀")
        #expect(throws: JSONScanner.Malformed.self) {
            var tooBig = JSONScanner(Array("99999999999999999999".utf8))
            _ = try tooBig.integer()
        }
    }

    @Test("event dates are written as Foundation's ISO 8601 style with milliseconds writes them")
    func isoDatesMatchFoundation() {
        var random = SeededRandom(seed: 8601)
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_000_000.999), Date(timeIntervalSince1970: 7_258_118_399.5)]
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0...7_258_118_400, using: &random)))
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: 0...7_258_118_400, using: &random))))
        }
        for date in dates {
            #expect(ISO8601Fast.format(date) == date.formatted(style), "\(date.timeIntervalSince1970)")
            #expect(ISO8601Fast.parse(ISO8601Fast.format(date)).map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
        }
    }
}
