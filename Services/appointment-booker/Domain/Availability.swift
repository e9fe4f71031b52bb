import PlatformCore

/// When a partner receives clients (B1, B3): weekly windows plus one-off exceptions, all in the partner's
/// zone. A day's hours are its weekday's windows, less its `off` exceptions, plus its `extra` ones.
package struct Availability: Sendable, Equatable {
    package struct WeeklyWindow: Sendable, Equatable {
        /// ISO weekday, 1 is Monday.
        package var weekday: Int
        package var start: LocalTime
        package var end: LocalTime

        package init(weekday: Int, start: LocalTime, end: LocalTime) {
            self.weekday = weekday
            self.start = start
            self.end = end
        }
    }

    package struct Exception: Sendable, Equatable {
        package enum Kind: String, Sendable, CaseIterable { case off, extra }
        package var date: CivilDate
        package var kind: Kind
        /// Nil with `end` nil: the whole day (only for `off`).
        package var start: LocalTime?
        package var end: LocalTime?

        package init(date: CivilDate, kind: Kind, start: LocalTime? = nil, end: LocalTime? = nil) {
            self.date = date
            self.kind = kind
            self.start = start
            self.end = end
        }
    }

    package var weekly: [WeeklyWindow]
    package var exceptions: [Exception]

    package init(weekly: [WeeklyWindow], exceptions: [Exception]) {
        self.weekly = weekly
        self.exceptions = exceptions
    }

    package static let empty = Availability(weekly: [], exceptions: [])
}

/// The rules a new availability must keep, each broken one named by its field for a 422.
package enum AvailabilityRules {
    package static let maxWeekly = 20
    package static let maxExceptions = 200

    /// The availability from the request's strings, or the problems by field (`weekly[0].end` → why).
    package static func parse(
        weekly: [(weekday: Int, start: String, end: String)],
        exceptions: [(date: String, kind: Availability.Exception.Kind, start: String?, end: String?)]
    ) -> Result<Availability, AvailabilityProblems> {
        var problems: [String: String] = [:]
        if weekly.count > maxWeekly { problems["weekly"] = "may hold at most \(maxWeekly) windows" }
        if exceptions.count > maxExceptions { problems["exceptions"] = "may hold at most \(maxExceptions) days" }
        var windows: [Availability.WeeklyWindow] = []
        for (index, window) in weekly.enumerated() {
            let field = "weekly[\(index)]"
            guard (1...7).contains(window.weekday) else {
                problems["\(field).weekday"] = "must be 1 (Monday) to 7 (Sunday)"
                continue
            }
            guard let span = span(window.start, window.end, field: field, problems: &problems) else { continue }
            windows.append(.init(weekday: window.weekday, start: span.start, end: span.end))
        }
        var days: [Availability.Exception] = []
        for (index, exception) in exceptions.enumerated() {
            let field = "exceptions[\(index)]"
            guard let date = CivilDate(parsing: exception.date) else {
                problems["\(field).date"] = "must be a day YYYY-MM-DD in \(CivilDate.years.lowerBound)...\(CivilDate.years.upperBound)"
                continue
            }
            switch (exception.start, exception.end) {
            case (nil, nil):
                guard exception.kind == .off else {
                    problems["\(field).start"] = "an extra window needs start and end"
                    continue
                }
                days.append(.init(date: date, kind: .off, start: nil, end: nil))
            case (let start?, let end?):
                guard let span = span(start, end, field: field, problems: &problems) else { continue }
                days.append(.init(date: date, kind: exception.kind, start: span.start, end: span.end))
            default:
                problems["\(field).end"] = "give start and end together, or neither for a whole day off"
            }
        }
        guard problems.isEmpty else { return .failure(AvailabilityProblems(byField: problems)) }
        return .success(Availability(weekly: windows, exceptions: days))
    }

    private static func span(_ start: String, _ end: String, field: String, problems: inout [String: String]) -> (start: LocalTime, end: LocalTime)? {
        guard let from = LocalTime(parsing: start), from < .endOfDay else {
            problems["\(field).start"] = "must be HH:MM before 24:00"
            return nil
        }
        guard let to = LocalTime(parsing: end) else {
            problems["\(field).end"] = "must be HH:MM or 24:00"
            return nil
        }
        guard from < to else {
            problems["\(field).end"] = "must be after start"
            return nil
        }
        return (from, to)
    }
}

package struct AvailabilityProblems: Error, Sendable {
    package let byField: [String: String]

    package init(byField: [String: String]) {
        self.byField = byField
    }
}
