import PlatformCore
import PlatformHTTP

extension CivilDate {
    /// A day named in a request (`from`, `date`): 400 when it is not a calendar day as the document's
    /// `format: date` reads it, 422 when it is one but outside `years`.
    static func requested(_ text: String, field: String) throws -> CivilDate {
        guard isWellFormed(text) else { throw JSONBody.schemaViolation([field: "must be a day YYYY-MM-DD"]) }
        guard let day = CivilDate(parsing: text) else {
            throw JSONBody.validationError([field: "must be in the years \(years.lowerBound)...\(years.upperBound)"])
        }
        return day
    }
}
