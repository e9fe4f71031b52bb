import Crypto
import Foundation
import Shared

/// What the reading operations share (B4): the content, the engine, the stored readings and the places of
/// worship read model.
struct ReadingService: Sendable {
    let content: ReadingContent
    let engine: ReadingEngine
    let store: ReadingStore
    let worship: WorshipPlaceStore
    let placesRadius: Double

    init(content: ReadingContent, key: String, store: ReadingStore, worship: WorshipPlaceStore, placesRadius: Double) {
        self.content = content
        engine = ReadingEngine(content: content, key: SymmetricKey(data: Data(key.utf8)))
        self.store = store
        self.worship = worship
        self.placesRadius = placesRadius
    }

    /// Keeps `reading` in `user`'s history (see `ReadingStore.keep`); past the day's limit, 429 `too_many_readings`.
    func keep(_ reading: Reading, user: String, inputs: String, day: CivilDate) async throws -> ReadingStore.Stored {
        do {
            return try await store.keep(reading, user: user, inputs: inputs, day: day, contentVersion: content.version)
        } catch let error as ReadingStore.TooManyReadings {
            throw APIError.tooManyRequests(
                code: "too_many_readings",
                message: "this account has kept \(error.limit) different readings in the last 24 hours; the same ones can still be read again",
                retryAfterSeconds: error.retryAfterSeconds)
        }
    }

    /// The reading's day: `date` when given (a shared horoscope link), else today in `tz` (UTC by default).
    static func day(tz: String?, date: String?, now: Date = Date()) throws -> CivilDate {
        if let date { return try CivilDate.requested(date, field: "date") }
        let clock = try tz.map { try BookingAPI.clock($0, field: "tz") } ?? .utc
        return clock.localDate(of: BookingTime.seconds(now))
    }

    /// Coordinates from a request: both or neither, each in range (400 otherwise, as the document states).
    static func position(latitude: Double?, longitude: Double?) throws -> (Double, Double)? {
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case (let latitude?, let longitude?):
            var problems: [String: String] = [:]
            if !latitude.isFinite || !(-90...90).contains(latitude) { problems["latitude"] = "must be in -90...90" }
            if !longitude.isFinite || !(-180...180).contains(longitude) { problems["longitude"] = "must be in -180...180" }
            guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
            return (latitude, longitude)
        default:
            throw JSONBody.validationError(["latitude": "give latitude and longitude together"])
        }
    }

    /// Places to pray near `position` after a bad verdict (B4), nearest first; nil otherwise.
    func placesToPray(after reading: Reading, near position: (Double, Double)?) async throws -> [WorshipPlaceStore.Nearby]? {
        guard reading.verdict == .bad, let (latitude, longitude) = position else { return nil }
        return try await worship.near(latitude: latitude, longitude: longitude, radius: placesRadius, limit: 5)
    }
}
