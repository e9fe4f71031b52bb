import Foundation
import PlatformCore
import PlatformHTTP

/// Checks of a partner profile's fields that the generated layer leaves to the service: lengths in code
/// points (400, as the document states them), an https photo URL and language uniqueness (400), the zone (422). Text is
/// stored without NUL, which Postgres cannot hold.
enum ProfileInput {
    static func check(
        name: String?, description: String?, contact: String?, photoURL: String?, languages: [String]?, timeZone: String?
    ) throws -> ProfileChanges {
        var problems: [String: String] = [:]
        func length(_ value: String?, _ field: String, _ range: ClosedRange<Int>) {
            if let value, !range.contains(RequestText.length(value)) {
                problems[field] = "must be \(range.lowerBound) to \(range.upperBound) characters"
            }
        }
        length(name, "name", 1...100)
        length(description, "description", 0...2000)
        length(contact, "contact", 1...200)
        length(timeZone, "timeZone", 1...64)
        if let photoURL, let problem = HTTPSURLField.problem(photoURL) { problems["photoUrl"] = problem }
        if let languages, languages.isEmpty || languages.count > 2 || Set(languages).count != languages.count {
            problems["languages"] = "must name one or two different languages"
        }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        if let timeZone { _ = try BookingAPI.clock(timeZone, field: "timeZone") }
        let clean = { (text: String?) in text.map(RequestText.withoutNUL) }
        return ProfileChanges(
            name: clean(name), description: clean(description), contact: clean(contact), photoURL: clean(photoURL),
            languages: languages, timeZone: timeZone)
    }
}
