import Foundation
import PlatformCore

/// Where readings are kept (B4): `ReadingStore` in Postgres, a memory one in the unit tests.
package protocol ReadingArchive: Sendable {
    /// Keeps `reading` unless this user already has one of the same kind, inputs and day: that one is returned.
    /// Throws `TooManyReadings` past the user's limit of different readings in 24 hours, keeping nothing.
    func keep(_ reading: Reading, user: String, inputs: String, day: CivilDate, contentVersion: String) async throws -> StoredReading
    /// The reading shared by this id, expired or not.
    func shared(_ shareId: String) async throws -> StoredReading?
    /// The user's readings newest first; one more than `limit` tells there are more.
    func history(of user: String, limit: Int, offset: Int) async throws -> [StoredReading]
}

/// The places of worship read model (B4): `WorshipPlaceStore` in Postgres.
package protocol WorshipPlaces: Sendable {
    /// Up to `limit` places within `radius` metres, nearest first.
    func near(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws -> [NearbyWorshipPlace]
}

/// The requests to places-importer for a point's places of worship (B4): `WorshipRequestStore` in Postgres.
package protocol WorshipRequests: Sendable {
    /// Where the point's cell stands, asking places-importer (again) when it must: for a member's reading only, within
    /// the hour's budget and `network`'s share of it.
    func status(latitude: Double, longitude: Double, radius: Double, network: String) async throws -> PlacesToPrayStatus
    /// Where the point's cell stands without asking or writing anything: `looking` while a request waits, `none` when
    /// places-importer answered none; nil when nobody asked lately.
    func known(latitude: Double, longitude: Double) async throws -> PlacesToPrayStatus?
}
