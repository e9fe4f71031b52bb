import Foundation
import Logging
import Synchronization
import Testing

@testable import PlacesImporter

/// Importing an area tile by tile (P1) against a catalogue and areas in memory: each tile is written and reported
/// on its own, a failure ends the run keeping what was written, and only a whole run closes vanished places.
@Suite("places: AreaImporter")
struct AreaImporterTests {
    /// One candidate per tile; the tile numbered `failing` (from 1) throws.
    final class ScriptedProvider: PlacesProvider {
        let name: String
        let tileDegrees = 1.0
        let failing: Int?
        let complete: Bool
        let asked = Mutex(0)

        init(name: String, failing: Int? = nil, complete: Bool = true) {
            (self.name, self.failing, self.complete) = (name, failing, complete)
        }

        func places(in tile: GeoBox, placesOfWorship: Bool) async throws -> [PlaceCandidate] {
            try await self.tile(tile, placesOfWorship: placesOfWorship).candidates
        }

        func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile {
            let number = asked.withLock {
                $0 += 1; return $0
            }
            if number == failing { throw ProviderFailure() }
            let candidate = PlaceCandidate(
                provider: name, providerId: "node/\(number)", name: "Café \(number)", category: .cafe, latitude: tile.south + 0.5,
                longitude: tile.west + 0.5)
            return ProviderTile(candidates: [candidate], complete: complete)
        }
    }

    struct ProviderFailure: Error, CustomStringConvertible {
        var description: String { "answered 503" }
    }

    /// What the importer wrote: each tile's candidates, and the closing run's arguments.
    final class MemoryImports: PlaceImports {
        let tiles = Mutex<[[PlaceCandidate]]>([])
        let closings = Mutex<[(seen: Set<SourceKey>, judged: Set<String>)]>([])

        func upsert(_ candidates: [PlaceCandidate]) async throws -> UpsertOutcome {
            tiles.withLock { $0.append(candidates) }
            return UpsertOutcome(created: candidates.count, changed: 0, unchanged: 0)
        }

        func closeVanished(in box: GeoBox, seen: Set<SourceKey>, judgedProviders: Set<String>, includesWorship: Bool) async throws -> PlaceClosure {
            closings.withLock { $0.append((seen, judgedProviders)) }
            return PlaceClosure(known: [], seen: seen, judgedProviders: judgedProviders)
        }
    }

    let places = MemoryImports()
    let areas = MemoryImportAreas()
    let changed = Calls()
    /// Two tiles of one degree each.
    let area = ImportArea(id: UUID(), name: "Strip", box: GeoBox(south: 0, west: 0, north: 1, east: 2))

    func importer(_ providers: [any PlacesProvider]) -> AreaImporter {
        AreaImporter(
            providers: providers, places: places, areas: areas, logger: Logger(label: "test"), placesChanged: { [changed] in changed.note() })
    }

    @Test("P1: every tile is written and reported; a whole run judges every provider for closing")
    func wholeRun() async throws {
        let (outcome, error) = await importer([ScriptedProvider(name: "osm")]).importArea(area)
        #expect(error == nil && outcome.created == 2)
        #expect(places.tiles.withLock { $0.count } == 2)
        #expect(areas.reported.withLock { $0.map { "\($0.tilesDone)/\($0.tilesTotal)" } } == ["1/2", "2/2"])
        let closing = try #require(places.closings.withLock { $0.first })
        #expect(closing.judged == ["osm"] && closing.seen.count == 2)
        #expect(changed.all.count == 2)
    }

    @Test("P1: a provider failing part-way ends the run with the tile and reason, keeping the tiles written, closing nothing")
    func failurePartWay() async {
        let (outcome, error) = await importer([ScriptedProvider(name: "osm", failing: 2)]).importArea(area)
        #expect(error == "osm tile 2/2: answered 503")
        #expect(outcome.created == 1 && places.tiles.withLock { $0.count } == 1)
        #expect(places.closings.withLock { $0.isEmpty })
    }

    @Test("P1: a provider whose answer was cut short cannot say a place is gone")
    func incompleteProvider() async {
        let providers: [any PlacesProvider] = [ScriptedProvider(name: "osm"), ScriptedProvider(name: "yelp", complete: false)]
        let (_, error) = await importer(providers).importArea(area)
        #expect(error == nil)
        #expect(places.closings.withLock { $0.first?.judged } == ["osm"])
        #expect(areas.reported.withLock { $0.last.map { "\($0.tilesDone)/\($0.tilesTotal)" } } == "4/4")
    }
}
