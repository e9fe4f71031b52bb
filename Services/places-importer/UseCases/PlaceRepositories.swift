import Foundation

/// The catalogue's places by id: `PlaceStore` in Postgres, a memory one in the unit tests.
package protocol PlaceCatalogue: Sendable {
    func find(_ id: UUID) async throws -> Place?
}

/// What importing an area writes to the catalogue (P1): `PlaceStore` in Postgres, a memory one in the unit tests.
package protocol PlaceImports: Sendable {
    /// Writes one tile's candidates in one transaction: new places, changed ones, and what each source said.
    func upsert(_ candidates: [PlaceCandidate]) async throws -> UpsertOutcome

    /// After a whole, successful run of `box`: closes the provider places that vanished and reopens the ones seen
    /// again (`PlaceClosure`).
    func closeVanished(
        in box: GeoBox, seen: Set<SourceKey>, judgedProviders: Set<String>, includesWorship: Bool
    ) async throws -> PlaceClosure
}
