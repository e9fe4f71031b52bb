import Foundation

/// A public source of workplaces (P1). Each provider decodes its own wire format into candidates and knows
/// how big an area one request may cover.
package protocol PlacesProvider: Sendable {
    /// `osm` or `yelp`: the first half of every source id the provider contributes.
    var name: String { get }
    /// The largest tile edge, in degrees, one request covers; larger areas are split.
    var tileDegrees: Double { get }
    /// Every workplace in `tile`, and with `placesOfWorship` the places of worship too. Throws `ProviderError`.
    func places(in tile: GeoBox, placesOfWorship: Bool) async throws -> [PlaceCandidate]
    /// The same, saying whether the answer lists every place the provider knows there (a capped search does
    /// not): only a complete answer may close the places it leaves out.
    func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile
}

/// One tile's answer from a provider.
package struct ProviderTile: Sendable {
    package var candidates: [PlaceCandidate]
    /// False when the provider cut its answer short (Yelp's result cap).
    package var complete: Bool

    package init(candidates: [PlaceCandidate], complete: Bool) {
        self.candidates = candidates
        self.complete = complete
    }
}

extension PlacesProvider {
    /// Providers whose answers are never cut short.
    package func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile {
        ProviderTile(candidates: try await places(in: tile, placesOfWorship: placesOfWorship), complete: true)
    }
}
