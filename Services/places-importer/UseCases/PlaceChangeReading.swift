import Foundation

/// The places written since a watermark, for the in-memory index (P2): `PlaceChangeFeed` in Postgres.
package protocol PlaceChangeReading: Sendable {
    /// Every place when `watermark` is nil, else those written by transactions it had not seen finish.
    func changes(since watermark: PlaceChangeWatermark?) async throws -> PlaceChanges
}
