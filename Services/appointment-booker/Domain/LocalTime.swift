import PlatformCore

/// A wall-clock time in a partner's zone as minutes after midnight, `00:00` to `24:00` (the end of the day).
package struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let minutes: Int

    package static let endOfDay = LocalTime(checkedMinutes: 1440)

    private init(checkedMinutes: Int) { minutes = checkedMinutes }

    package init?(minutes: Int) {
        guard (0...1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// `HH:MM` with HH 00-23 and MM 00-59, or `24:00`; else nil.
    package init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60, hours < 24 || (hours == 24 && minutes == 0)
        else { return nil }
        self.minutes = hours * 60 + minutes
    }

    package var description: String { "\(CivilDate.padded(minutes / 60, 2)):\(CivilDate.padded(minutes % 60, 2))" }

    package static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }
}
