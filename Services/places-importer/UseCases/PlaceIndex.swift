import Foundation
import Logging
import Synchronization

/// The in-memory catalogue behind the nearby route (P2): a `PlaceGrid` loaded from Postgres at start and
/// kept current by reading the change feed every `PLACES_NEARBY_REFRESH_MS` and right after this instance
/// writes places (an import tile, an added place), so its own writes are visible to the next request.
/// Until the first load finishes, `snapshot` is nil and the route asks PostGIS.
package final class PlaceIndex: Sendable {
    private let feed: any PlaceChangeReading
    private let logger: Logger
    private let grid = Mutex<PlaceGrid?>(nil)
    private let watermark = Mutex<PlaceChangeWatermark?>(nil)
    /// The refresh in progress or last started: refreshes run one after another, never together.
    private let lastRefresh = Mutex<Task<Void, any Error>?>(nil)

    /// How a place is written in an answer, made once when it enters the grid (the API's JSON).
    private let render: @Sendable (Place) -> String

    package init(feed: any PlaceChangeReading, render: @escaping @Sendable (Place) -> String, logger: Logger) {
        self.feed = feed
        self.render = render
        self.logger = logger
    }

    /// The grid as it is now (a copy-on-write value: later refreshes do not change it), nil before the first load.
    package var snapshot: PlaceGrid? { grid.withLock { $0 } }

    /// Reads what changed since the last refresh and applies it; returns after a refresh that started after
    /// this call, so a write committed before the call is in the grid when it returns.
    package func refresh() async throws {
        let task = lastRefresh.withLock { last -> Task<Void, any Error> in
            let previous = last
            let next = Task {
                _ = await previous?.result
                try await self.applyChanges()
            }
            last = next
            return next
        }
        try await task.value
    }

    private func applyChanges() async throws {
        let since = watermark.withLock { $0 }
        let batch = try await feed.changes(since: since)
        let current = grid.withLock { $0 }
        if current == nil || !batch.places.isEmpty {
            // Changed outside the lock (the first upsert copies what readers may still hold), so readers never
            // wait for a refresh.
            var updated = current ?? PlaceGrid()
            for changed in batch.places {
                // The places app lists workplaces only: places of worship are the horoscope app's (B4).
                if changed.closed || changed.place.category == .worship {
                    updated.remove(changed.place.id)
                } else {
                    updated.upsert(PlaceGrid.Entry(changed.place, matchName: changed.matchName, rendered: render(changed.place)))
                }
            }
            grid.withLock { $0 = updated }
        }
        watermark.withLock { $0 = batch.watermark }
        if since == nil {
            logger.info("place index loaded", metadata: ["places": "\(batch.places.count { !$0.closed })"])
        }
    }
}
