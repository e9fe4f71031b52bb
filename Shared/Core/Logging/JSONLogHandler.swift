import Foundation
import Logging

/// One JSON object per line on standard error, for log collectors (`LOG_FORMAT=json`, the default):
/// `{"time":"2026-11-23T07:30:00.123Z","level":"info","logger":"places-importer","message":"…","source":"PlatformKafka",…}`
/// with the metadata as further string (or array/object) fields. Setting metadata only stores it; the line is
/// written when something is logged, so a request that logs nothing pays nothing for its metadata.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    /// Metadata every line gets at the moment it is written (the current span's trace ids).
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.writeToStandardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        if let error = event.error, fields["error"] == nil { fields["error"] = "\(String(reflecting: error))" }
        var line = "{\"time\":\"\(Self.timestamp(Date()))\",\"level\":\"\(event.level.rawValue)\""
        line += ",\"logger\":\(JSONString.quoted(label)),\"message\":\(JSONString.quoted(event.message.description))"
        line += ",\"source\":\(JSONString.quoted(event.source))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !Self.reserved.contains(key) {
            line += ",\(JSONString.quoted(key)):\(Self.json(value))"
        }
        write(line + "}\n")
    }

    /// Keys the line writes itself; metadata under these names is left out rather than written twice.
    private static let reserved: Set<String> = ["time", "level", "logger", "message", "source"]

    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): JSONString.quoted(text)
        case .stringConvertible(let convertible): JSONString.quoted(convertible.description)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let dictionary):
            "{" + dictionary.sorted { $0.key < $1.key }.map { "\(JSONString.quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// UTC with milliseconds, as ISO 8601.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down).roundedClampedInt)
        let milliseconds = ((date.timeIntervalSince1970 - Double(seconds)) * 1_000).rounded(.down).roundedClampedInt
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
            + "T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(milliseconds), 3))Z"
    }

    /// One `write(2)` per line, so lines from concurrent tasks do not interleave.
    @Sendable public static func writeToStandardError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
