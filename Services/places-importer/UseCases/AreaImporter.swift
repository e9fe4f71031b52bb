import Foundation
import Logging
import Metrics

/// Imports one area from every configured provider, tile by tile (P1). Each tile commits on its own, so a
/// provider failure part-way ends the run clearly (status `failed`, the error kept) without losing the
/// tiles already imported; the next run starts again from the first tile. A run that saw the whole area
/// closes the places that vanished from every provider and reopens those listed again (`PlaceClosure`).
package struct AreaImporter: Sendable {
    package let providers: [any PlacesProvider]
    package let places: any PlaceImports
    package let areas: any ImportRunProgress
    package let logger: Logger
    /// Called after a tile that created or changed places committed (the nearby index reads them in).
    package let placesChanged: @Sendable () async -> Void

    package init(
        providers: [any PlacesProvider], places: any PlaceImports, areas: any ImportRunProgress, logger: Logger,
        placesChanged: @escaping @Sendable () async -> Void
    ) {
        self.providers = providers
        self.places = places
        self.areas = areas
        self.logger = logger
        self.placesChanged = placesChanged
    }

    /// The outcome, or the first provider error. The next tile is fetched while the current one is written:
    /// the provider still sees one request at a time (its usage policy), and its answer and decoding overlap
    /// the database's work instead of waiting for it.
    package func importArea(_ area: ImportArea) async -> (outcome: UpsertOutcome, error: String?) {
        let work = providers.flatMap { provider in area.box.tiles(maxDegrees: provider.tileDegrees).map { (provider, $0) } }
        var outcome = UpsertOutcome()
        logger.info("import started", metadata: ["area": "\(area.name)", "tiles": "\(work.count)"])
        let worship = area.placesOfWorship
        var prefetch = work.first.map { first in Task { try await first.0.tile(first.1, placesOfWorship: worship) } }
        defer { prefetch?.cancel() }
        var seen: Set<SourceKey> = []
        var incompleteProviders: Set<String> = []
        for (index, (provider, _)) in work.enumerated() {
            do {
                guard let fetching = prefetch else { break }
                let answer = try await withTaskCancellationHandler {
                    try await fetching.value
                } onCancel: {
                    fetching.cancel()
                }
                let following = index + 1 < work.count ? work[index + 1] : nil
                prefetch = following.map { next in Task { try await next.0.tile(next.1, placesOfWorship: worship) } }
                seen.formUnion(answer.candidates.map(SourceKey.init))
                if !answer.complete { incompleteProviders.insert(provider.name) }
                let tileOutcome = try await places.upsert(answer.candidates)
                outcome += tileOutcome
                if tileOutcome.created + tileOutcome.changed > 0 { await placesChanged() }
                try await areas.progress(area.id, outcome: outcome, tilesDone: index + 1, tilesTotal: work.count)
                Counter(label: "places_import_tiles_total", dimensions: [("provider", provider.name)]).increment()
                for (result, count) in [("created", tileOutcome.created), ("changed", tileOutcome.changed), ("unchanged", tileOutcome.unchanged)] {
                    Counter(label: "places_imported_total", dimensions: [("provider", provider.name), ("result", result)]).increment(by: count)
                }
                logger.info(
                    "import progress",
                    metadata: [
                        "area": "\(area.name)", "provider": "\(provider.name)", "tile": "\(index + 1)/\(work.count)",
                        "created": "\(outcome.created)", "changed": "\(outcome.changed)", "unchanged": "\(outcome.unchanged)",
                    ])
            } catch {
                let reason = "\(provider.name) tile \(index + 1)/\(work.count): \(error)"
                Counter(label: "places_import_failures_total", dimensions: [("provider", provider.name)]).increment()
                logger.error("import failed", metadata: ["area": "\(area.name)", "error": "\(reason)"])
                return (outcome, reason)
            }
        }
        if Task.isCancelled { return (outcome, "cancelled") }
        if let failure = await closeVanished(in: area, outcome: outcome, seen: seen, incompleteProviders: incompleteProviders) {
            return (outcome, failure)
        }
        return (outcome, nil)
    }

    /// After a whole run: closes what vanished, reopens what came back (`PlaceClosure`); the failure, if any.
    private func closeVanished(
        in area: ImportArea, outcome: UpsertOutcome, seen: Set<SourceKey>, incompleteProviders: Set<String>
    ) async -> String? {
        do {
            let judged = Set(providers.map(\.name)).subtracting(incompleteProviders)
            let closure = try await places.closeVanished(
                in: area.box, seen: seen, judgedProviders: judged, includesWorship: area.placesOfWorship)
            Counter(label: "places_closed_total").increment(by: closure.closing.count)
            Counter(label: "places_reopened_total").increment(by: closure.reopening.count)
            if !closure.closing.isEmpty || !closure.reopening.isEmpty { await placesChanged() }
            logger.info(
                "import finished",
                metadata: [
                    "area": "\(area.name)", "created": "\(outcome.created)", "changed": "\(outcome.changed)",
                    "unchanged": "\(outcome.unchanged)", "closed": "\(closure.closing.count)", "reopened": "\(closure.reopening.count)",
                ])
            return nil
        } catch {
            let reason = "closing vanished places: \(error)"
            logger.error("import failed", metadata: ["area": "\(area.name)", "error": "\(reason)"])
            return reason
        }
    }
}
