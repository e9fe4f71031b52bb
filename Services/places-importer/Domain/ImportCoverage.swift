import Foundation
import Synchronization

/// Which parts of the world have import areas, read from `import_areas` every few seconds (P1), so the nearby
/// route can tell without a query whether the place a user opened the app at is imported, being imported
/// for the first time, or never asked for.
package final class ImportCoverage: Sendable {
    /// An import area as the coverage needs it.
    package struct Area: Sendable {
        package var box: GeoBox
        package var onDemand: Bool
        /// A run of it has finished (successfully or not) at least once.
        package var imported: Bool

        package init(box: GeoBox, onDemand: Bool, imported: Bool) {
            self.box = box
            self.onDemand = onDemand
            self.imported = imported
        }
    }

    package enum Status: Sendable, Equatable {
        /// The areas are not read yet: nothing is asked for.
        case unknown
        /// An area covers the point; `importing` until its first run finished.
        case covered(importing: Bool)
        /// No area covers the point: the tile around it may be asked for.
        case uncovered(OnDemandTile)
    }

    package let tileDegrees: Double
    /// How long a refused request (over the rate limit) is not asked again by this instance.
    package let retryAfterRefusal: Duration
    private let state = Mutex<State?>(nil)

    private struct State {
        package var areas: [Area] = []
        package var tiles: [OnDemandTile: Bool] = [:]
        package var refusedUntil: [OnDemandTile: ContinuousClock.Instant] = [:]
        package var usersRefusedUntil: [String: ContinuousClock.Instant] = [:]
        package var touchedAt: [OnDemandTile: ContinuousClock.Instant] = [:]

        package init(
            areas: [Area] = [], tiles: [OnDemandTile: Bool] = [:], refusedUntil: [OnDemandTile: ContinuousClock.Instant] = [:],
            usersRefusedUntil: [String: ContinuousClock.Instant] = [:], touchedAt: [OnDemandTile: ContinuousClock.Instant] = [:]
        ) {
            self.areas = areas
            self.tiles = tiles
            self.refusedUntil = refusedUntil
            self.usersRefusedUntil = usersRefusedUntil
            self.touchedAt = touchedAt
        }
    }

    package init(tileDegrees: Double, retryAfterRefusal: Duration = .seconds(60)) {
        self.tileDegrees = tileDegrees
        self.retryAfterRefusal = retryAfterRefusal
    }

    /// Replaces what this instance knows with the areas as stored now.
    package func load(_ areas: [Area]) {
        let configured = areas.filter { !$0.onDemand }
        var tiles: [OnDemandTile: Bool] = [:]
        for area in areas where area.onDemand {
            tiles[OnDemandTile(box: area.box, degrees: tileDegrees)] = area.imported
        }
        state.withLock { state in
            state = State(
                areas: configured, tiles: tiles, refusedUntil: state?.refusedUntil ?? [:], usersRefusedUntil: state?.usersRefusedUntil ?? [:],
                touchedAt: state?.touchedAt.filter { tiles[$0.key] != nil } ?? [:])
        }
    }

    package func status(latitude: Double, longitude: Double, now: ContinuousClock.Instant = .now) -> Status {
        state.withLock { state in
            guard let state else { return .unknown }
            let tile = OnDemandTile(latitude: latitude, longitude: longitude, degrees: tileDegrees)
            if let imported = state.tiles[tile] { return .covered(importing: !imported) }
            let containing = state.areas.filter {
                latitude >= $0.box.south && latitude <= $0.box.north && longitude >= $0.box.west && longitude <= $0.box.east
            }
            if !containing.isEmpty { return .covered(importing: !containing.contains { $0.imported }) }
            if let until = state.refusedUntil[tile], until > now { return .covered(importing: false) }
            return .uncovered(tile)
        }
    }

    /// The on-demand tile holding the point when its area is due a "still asked for" mark: at most once an hour
    /// per tile on this instance, so a busy tile costs one write an hour, not one per request.
    package func onDemandTileToTouch(latitude: Double, longitude: Double, now: ContinuousClock.Instant = .now) -> OnDemandTile? {
        state.withLock { state -> OnDemandTile? in
            guard state != nil else { return nil }
            let tile = OnDemandTile(latitude: latitude, longitude: longitude, degrees: tileDegrees)
            guard state?.tiles[tile] != nil else { return nil }
            if let last = state?.touchedAt[tile], now - last < .seconds(3_600) { return nil }
            state?.touchedAt[tile] = now
            return tile
        }
    }

    /// The tile was queued (here or by another instance): it counts as importing until the next load says more.
    package func noteQueued(_ tile: OnDemandTile) {
        state.withLock { state in
            if state?.tiles[tile] == nil { state?.tiles[tile] = false }
        }
    }

    /// True while a user's last request was over their own hourly limit: their next ones are not asked for.
    package func isRefused(user: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in (state?.usersRefusedUntil[user]).map { $0 > now } ?? false }
    }

    /// The user is over their own limit: their tiles are not asked for during `retryAfterRefusal`.
    package func noteRefused(user: String, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard var current = state else { return }
            current.usersRefusedUntil = current.usersRefusedUntil.filter { $0.value > now }
            current.usersRefusedUntil[user] = now + retryAfterRefusal
            state = current
        }
    }

    /// The tile was refused (rate limit): not asked again for `retryAfterRefusal`.
    package func noteRefused(_ tile: OnDemandTile, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard var current = state else { return }
            current.refusedUntil = current.refusedUntil.filter { $0.value > now }
            current.refusedUntil[tile] = now + retryAfterRefusal
            state = current
        }
    }
}
