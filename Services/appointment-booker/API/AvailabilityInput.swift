import PlatformCore
import PlatformHTTP

/// An availability from the request: shapes the document states (counts, weekday range, `HH:MM`, dates)
/// are 400 like any document mismatch; the rules beyond it (`end` after `start`, an extra window's times)
/// are 422 naming each field.
enum AvailabilityInput {
    static func parse(_ body: Components.Schemas.Availability) throws -> Availability {
        var problems: [String: String] = [:]
        if body.weekly.count > AvailabilityRules.maxWeekly { problems["weekly"] = "may hold at most \(AvailabilityRules.maxWeekly) windows" }
        if body.exceptions.count > AvailabilityRules.maxExceptions {
            problems["exceptions"] = "may hold at most \(AvailabilityRules.maxExceptions) days"
        }
        for (index, window) in body.weekly.enumerated() {
            if !(1...7).contains(window.weekday) { problems["weekly[\(index)].weekday"] = "must be in 1...7" }
            if LocalTime(parsing: window.start) == nil { problems["weekly[\(index)].start"] = "must be HH:MM" }
            if LocalTime(parsing: window.end) == nil { problems["weekly[\(index)].end"] = "must be HH:MM" }
        }
        for (index, exception) in body.exceptions.enumerated() {
            if !CivilDate.isWellFormed(exception.date) { problems["exceptions[\(index)].date"] = "must be a day YYYY-MM-DD" }
            if let start = exception.start, LocalTime(parsing: start) == nil { problems["exceptions[\(index)].start"] = "must be HH:MM" }
            if let end = exception.end, LocalTime(parsing: end) == nil { problems["exceptions[\(index)].end"] = "must be HH:MM" }
        }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        let parsed = AvailabilityRules.parse(
            weekly: body.weekly.map { ($0.weekday, $0.start, $0.end) },
            exceptions: body.exceptions.map { ($0.date, $0.kind == .off ? .off : .extra, $0.start, $0.end) })
        switch parsed {
        case .success(let availability): return availability
        case .failure(let problems): throw JSONBody.validationError(problems.byField)
        }
    }
}
