/// A calendar day with no zone (a day in a partner's zone, an event's UTC day), by proleptic Gregorian
/// arithmetic: no Calendar, so a date from a request can be checked and stepped without Foundation's locale
/// rules or traps, and an event's day is named without a formatter. The platform's one civil-date arithmetic.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let daysSinceEpoch: Int

    /// The years a request may name: far enough for any booking, small enough that no arithmetic overflows.
    public static let years = 1970...2200

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// Nil for a day that does not exist (February 30th) or a year outside `years`.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.years.contains(year), (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else {
            return nil
        }
        daysSinceEpoch = Self.days(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD` of a year in `years`, else nil.
    public init?(parsing text: String) {
        guard let (year, month, day) = Self.fields(text) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Whether `text` is a calendar day as JSON Schema's `format: date` reads it (any year 0000-9999): a day
    /// outside `years` is then a rule the service states (422), not a malformed request (400).
    public static func isWellFormed(_ text: String) -> Bool {
        guard let (year, month, day) = fields(text) else { return false }
        return (1...12).contains(month) && (1...daysIn(month: month, year: year)).contains(day)
    }

    private static func fields(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return (year, month, day)
    }

    public var components: (year: Int, month: Int, day: Int) { Self.civil(fromDays: daysSinceEpoch) }

    /// ISO weekday: 1 is Monday, 7 Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 + 1 }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    public var description: String {
        let (year, month, day) = components
        return "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    public static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's days_from_civil.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's civil_from_days.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
