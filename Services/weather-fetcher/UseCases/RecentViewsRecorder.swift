import Foundation
import Logging
import PlatformCore
import Synchronization

/// The recents (W7) without a write per view: a signed-in city view notes (user, city, time) in memory, and
/// `RecentViewsFlush` writes everything noted every `WEATHER_RECENT_VIEWS_FLUSH_MS` in one transaction. Per user,
/// a city viewed again takes its new place, and several cities keep the order they were viewed in.
///
/// The trade-off: views noted since the last flush are lost if the process dies without a graceful stop (kill -9,
/// a crash); a graceful stop flushes them. Recents are a convenience list, not events, so a second of them is an
/// accepted loss. Memory is bounded: past `maxPendingUsers` users waiting, the view that passes it flushes first.
package final class RecentViewsRecorder: Sendable {
    package let store: any RecentCityViews
    /// Views kept per user: no more than the recents keep.
    package let recentLimit: Int
    package let maxPendingUsers: Int
    package let logger: Logger
    /// Each user's views since the last flush, one per city, oldest first.
    private let pending = Mutex([String: [CityView]]())
    /// Each user's newest view as last written, for a minute: a reload of that city within it needs no write.
    private let written = TTLCache<String, CityView>(ttl: .seconds(60), capacity: 200_000)
    private let turn = FlushTurn()

    package init(store: any RecentCityViews, recentLimit: Int, maxPendingUsers: Int = 10_000, logger: Logger) {
        self.store = store
        self.recentLimit = recentLimit
        self.maxPendingUsers = max(1, maxPendingUsers)
        self.logger = logger
    }

    /// Notes a view. Returns at once, unless more than `maxPendingUsers` users now wait: then it flushes first.
    package func note(userId: String, cityId: Int, at viewedAt: Date) async {
        let newestWritten = written.value(for: userId)
        let full = pending.withLock { pending -> Bool in
            var views = pending[userId] ?? []
            if let last = views.last ?? newestWritten, last.cityId == cityId, viewedAt.timeIntervalSince(last.viewedAt) < 60 {
                return false
            }
            views.removeAll { $0.cityId == cityId }
            views.append(CityView(cityId: cityId, viewedAt: viewedAt))
            if views.count > recentLimit { views.removeFirst(views.count - recentLimit) }
            pending[userId] = views
            return pending.count > maxPendingUsers
        }
        if full { await flushLogging() }
    }

    /// Writes every noted view in one batch. On failure they stay noted for the next flush.
    package func flush() async throws {
        try await flush(.everyone)
    }

    /// Writes one user's noted views, so that their own read of the recents shows views just made.
    package func flush(userId: String) async throws {
        try await flush(.user(userId))
    }

    /// `flush()` for the background loop: a failure is logged, and the views wait for the next one.
    package func flushLogging() async {
        do {
            try await flush()
        } catch {
            // Cut short by a shutdown: the views were put back, and the last flush writes them.
            if Task.isCancelled { return }
            logger.warning("writing recent city views failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Forgets an erased account's noted views (`user.deleted`), so that no flush writes them back.
    package func forget(userId: String) {
        _ = pending.withLock { $0.removeValue(forKey: userId) }
        written.invalidate(userId)
    }

    /// Gives an install's noted views to the account it was merged into (`user.merged`), as the merge does with
    /// what was written.
    package func move(from: String, into: String) {
        pending.withLock { pending in
            guard let moved = pending.removeValue(forKey: from) else { return }
            // Both accounts' views in the order they were made.
            let both = (pending[into] ?? []) + moved
            pending[into] = Self.merged([], both.sorted { $0.viewedAt < $1.viewedAt }, limit: recentLimit)
        }
        written.invalidate(from)
        written.invalidate(into)
    }

    /// What is noted now, per user.
    package var noted: [String: [CityView]] { pending.withLock { $0 } }

    private enum Selection: Sendable {
        case everyone
        case user(String)
    }

    /// Flushes run one at a time and take their views when their turn comes: a user's views are written in the order
    /// they were made, never a later batch before an earlier one.
    private func flush(_ selection: Selection) async throws {
        try await turn.run {
            let taken: [String: [CityView]] = self.pending.withLock { pending in
                switch selection {
                case .everyone:
                    defer { pending.removeAll() }
                    return pending
                case .user(let userId):
                    return pending.removeValue(forKey: userId).map { [userId: $0] } ?? [:]
                }
            }
            guard !taken.isEmpty else { return }
            do {
                try await self.store.recordViews(taken.map { UserCityViews(userId: $0.key, views: $0.value) })
            } catch {
                self.restore(taken)
                throw error
            }
            for (userId, views) in taken {
                if let newest = views.last { self.written.store(newest, for: userId) }
            }
        }
    }

    /// Puts a failed flush's views back before any noted since; past the bound, the rest are dropped.
    private func restore(_ taken: [String: [CityView]]) {
        let dropped = pending.withLock { pending -> Int in
            var dropped = 0
            for (userId, views) in taken {
                if pending[userId] == nil, pending.count >= maxPendingUsers {
                    dropped += 1
                    continue
                }
                pending[userId] = Self.merged(views, pending[userId] ?? [], limit: recentLimit)
            }
            return dropped
        }
        if dropped > 0 {
            logger.warning("recent city views dropped: too many users waiting for a write", metadata: ["users": "\(dropped)"])
        }
    }

    /// `earlier` then `later`, one view per city (its last), the newest `limit`.
    private static func merged(_ earlier: [CityView], _ later: [CityView], limit: Int) -> [CityView] {
        var seen = Set<Int>()
        let views = (earlier + later).reversed().filter { seen.insert($0.cityId).inserted }
        return Array(views.prefix(limit).reversed())
    }
}

/// One operation at a time, in the order they asked.
private actor FlushTurn {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package func run(_ body: @Sendable () async throws -> Void) async rethrows {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        try await body()
    }
}
