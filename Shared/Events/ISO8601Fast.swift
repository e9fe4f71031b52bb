import Foundation
import PlatformCore

/// Reads the one date form the platform writes, `2026-11-23T18:05:00.123Z` (fractional digits optional), without
/// Foundation's general ISO 8601 parser, which took 7% of warning-detector's CPU in a profile of the
/// forecast consumer (48 hourly dates per event). Anything else (offsets, other lengths) answers nil, and
/// the caller falls back to Foundation.
public enum ISO8601Fast {
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count >= 20, bytes[bytes.count - 1] == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
                bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                bytes[16] == UInt8(ascii: ":")
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
                let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
                hour < 24, minute < 60, second < 61
            else { return nil }
            var fraction = 0.0
            if bytes.count > 20 {
                // ".ddd…Z": at least one digit, at most nine.
                guard bytes[19] == UInt8(ascii: "."), bytes.count - 21 >= 1, bytes.count - 21 <= 9, let digits = number(20..<(bytes.count - 1))
                else { return nil }
                var scale = 1.0
                for _ in 0..<(bytes.count - 21) { scale *= 10 }
                fraction = Double(digits) / scale
            } else if bytes[19] != UInt8(ascii: "Z") {
                return nil
            }
            let days = CivilDate.days(year: year, month: month, day: day)
            let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
            return Date(timeIntervalSince1970: seconds)
        }
    }

    /// `2026-11-23T18:05:00.123Z`: what `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` writes, for the
    /// events written by hand (`HandWrittenJSONPayload`). Milliseconds are cut, not rounded, as that style cuts them.
    public static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down).roundedClampedInt
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (wholeDays, inDay) = dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let time = [inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1_000 % 60].map { CivilDate.padded($0, 2) }.joined(separator: ":")
        return "\(CivilDate(daysSinceEpoch: wholeDays))T\(time).\(CivilDate.padded(inDay % 1_000, 3))Z"
    }
}
