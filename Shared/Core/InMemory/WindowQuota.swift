import Foundation
import Synchronization

/// At most `limit` units per key in each fixed window (a minute, say), counted in this process: a flood from
/// one app key or one client address is refused with 429 and `Retry-After` until its window turns. Keys of
/// past windows are dropped as the table grows; when it holds `maxKeys` keys of the current window, new keys
/// share one overflow allowance of `overflowFactor` × `limit` until the window turns: memory stays bounded, a
/// flood of distinct addresses (an IPv6 block has millions of /64s) cannot send freely once the table is full,
/// and it does not lock every new client out at its first request either.
///
/// Per instance: N instances admit up to N × `limit` in all, which bounds abuse (what this is for) without a
/// shared store on the request path.
public final class WindowQuota: Sendable {
    public let limit: Int
    public let window: Duration
    let maxKeys: Int
    let overflowFactor: Int
    private let counts = Mutex<(keys: [String: (window: Int64, used: Int)], overflow: (window: Int64, used: Int))>(([:], (0, 0)))

    public init(limit: Int, window: Duration = .seconds(60), maxKeys: Int = 100_000, overflowFactor: Int = 10) {
        precondition(limit > 0 && window > .zero && maxKeys > 0 && overflowFactor > 0, "a quota needs a positive limit, window and key bound")
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
        self.overflowFactor = overflowFactor
    }

    /// Takes `units` for `key`: nil when they fit, else how long until the window turns (for `Retry-After`).
    /// A request larger than the whole limit never fits.
    public func take(_ units: Int = 1, for key: String, now: Date = Date()) -> Duration? {
        let windowMilliseconds = max(1, window.wholeMilliseconds)
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        let current = nowMilliseconds / windowMilliseconds
        let retryAfter = Duration.milliseconds((current + 1) * windowMilliseconds - nowMilliseconds)
        return counts.withLock { counts -> Duration? in
            var used = counts.keys[key].flatMap { $0.window == current ? $0.used : nil } ?? 0
            if counts.keys[key] == nil, counts.keys.count >= maxKeys {
                counts.keys = counts.keys.filter { $0.value.window == current }
                if counts.keys.count >= maxKeys {
                    // Still full of this window's keys: the new key counts in the shared overflow allowance.
                    let overflowUsed = counts.overflow.window == current ? counts.overflow.used : 0
                    guard units <= limit * overflowFactor - overflowUsed else { return retryAfter }
                    counts.overflow = (current, overflowUsed + units)
                    return nil
                }
            }
            guard units <= limit - used else { return retryAfter }
            used += units
            counts.keys[key] = (current, used)
            return nil
        }
    }
}

extension WindowQuota {
    /// Returns `units` taken for `key` in the current window (a request another quota then refused, which must
    /// not count against this one). Units of a window that has turned are gone with it.
    public func giveBack(_ units: Int, for key: String, now: Date = Date()) {
        let windowMilliseconds = max(1, window.wholeMilliseconds)
        let current = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down)) / windowMilliseconds
        counts.withLock { counts in
            guard let entry = counts.keys[key] else {
                // Counted in the overflow allowance (the table was full when it was taken).
                if counts.overflow.window == current { counts.overflow.used = max(0, counts.overflow.used - units) }
                return
            }
            guard entry.window == current else { return }
            counts.keys[key] = (current, max(0, entry.used - units))
        }
    }
}
