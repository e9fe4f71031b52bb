import Foundation
import PlatformCore
import PlatformHTTP

/// What a reading request names beyond its body: the day and the caller's position, read from the request with
/// the document's errors (400 for a malformed value, 422 for a rule the document states in words).
enum ReadingRequest {
    /// The reading's day: `date` when given (a shared horoscope link), else today in `tz` (UTC by default).
    static func day(tz: String?, date: String?, now: Date = Date()) throws -> CivilDate {
        if let date { return try CivilDate.requested(date, field: "date") }
        let clock = try tz.map { try BookingAPI.clock($0, field: "tz") } ?? .utc
        return clock.localDate(of: BookingTime.seconds(now))
    }

    /// Coordinates from a request: both or neither (422), each in range (400 otherwise, as the document states), and
    /// the latitude where people live (422, `ReadingPosition`).
    static func position(latitude: Double?, longitude: Double?) throws -> (Double, Double)? {
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case (let latitude?, let longitude?):
            var problems: [String: String] = [:]
            if !latitude.isFinite || !(-90...90).contains(latitude) { problems["latitude"] = "must be in -90...90" }
            if !longitude.isFinite || !(-180...180).contains(longitude) { problems["longitude"] = "must be in -180...180" }
            guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
            guard ReadingPosition.isWithinReach(latitude: latitude) else {
                throw JSONBody.validationError(["latitude": "must be within \(Int(ReadingPosition.maximumLatitude))° of the equator"])
            }
            return (latitude, longitude)
        default:
            throw JSONBody.validationError(["latitude": "give latitude and longitude together"])
        }
    }
}
