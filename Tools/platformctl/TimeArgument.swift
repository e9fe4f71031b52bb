import Foundation

/// A point in time on the command line: `timestamp:<epoch milliseconds>` or ISO 8601 (`2026-11-24T10:00:00Z`).
enum TimeArgument {
    static func milliseconds(_ text: String) -> Int64? {
        if text.hasPrefix("timestamp:") { return Int64(text.dropFirst("timestamp:".count)) }
        let formats = [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)]
        for format in formats {
            if let date = try? Date(text, strategy: format) {
                let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
                return Int64(exactly: milliseconds)
            }
        }
        return nil
    }
}
