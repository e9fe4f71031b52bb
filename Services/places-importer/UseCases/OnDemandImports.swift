import Foundation
import Logging
import Metrics
import PlatformCore

/// Places around the user when the app opens (P1): a nearby list asked for where no area was ever imported
/// queues the tile around that point as an import area of its own (rate-limited, deduplicated across
/// instances), which the scheduler imports like any other; the list says `importing` until the tile's first
/// run finished.
package struct OnDemandImports: Sendable {
    package let coverage: ImportCoverage
    package let areas: any OnDemandAreas
    package let perHour: Int
    package let perUserPerHour: Int
    package let logger: Logger

    package init(coverage: ImportCoverage, areas: any OnDemandAreas, perHour: Int, perUserPerHour: Int, logger: Logger) {
        self.coverage = coverage
        self.areas = areas
        self.perHour = perHour
        self.perUserPerHour = perUserPerHour
        self.logger = logger
    }

    /// True while the places around the point are still being imported for the first time. Only a trusted caller
    /// (`mayQueue`: auth's `trusted` claim) queues a tile nobody asked for: the hour's tiles are everyone's, and
    /// new install accounts are cheap, so a few addresses' fresh accounts would otherwise use them up for all.
    package func importing(latitude: Double, longitude: Double, user: String, mayQueue: Bool) async -> Bool {
        switch coverage.status(latitude: latitude, longitude: longitude) {
        case .unknown: return false
        case .covered(let importing):
            if let tile = coverage.onDemandTileToTouch(latitude: latitude, longitude: longitude) {
                do {
                    try await areas.touchOnDemand(tile)
                } catch {
                    logger.warning("on-demand tile not marked as asked for", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            return importing
        case .uncovered(let tile):
            // Over their own limit: no transaction per request until it has had time to pass.
            if !mayQueue || coverage.isRefused(user: user) { return false }
            do {
                let result = try await areas.requestOnDemand(tile, user: user, perHour: perHour, perUserPerHour: perUserPerHour)
                Counter(label: "places_on_demand_requests_total", dimensions: [("result", "\(result)")]).increment()
                switch result {
                case .queued, .alreadyQueued:
                    coverage.noteQueued(tile)
                    if result == .queued { logger.info("on-demand import queued", metadata: ["area": "\(tile.areaName)", "userId": "\(user)"]) }
                    return true
                case .refusedForEveryone:
                    // Nobody's request for this tile is asked again for a while: the limit holds for everyone.
                    coverage.noteRefused(tile)
                    return false
                case .refusedForUser:
                    coverage.noteRefused(user: user)
                    return false
                }
            } catch {
                // The list itself does not depend on it; the next request asks again.
                logger.warning("on-demand import request failed", metadata: ["error": "\(String(reflecting: error))"])
                return false
            }
        }
    }
}
