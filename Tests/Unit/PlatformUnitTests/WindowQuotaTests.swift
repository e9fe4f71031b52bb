import Foundation
import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

/// X3: public writes are bounded per key and window (`WindowQuota`).
@Suite("Quotas per key and window")
struct WindowQuotaTests {
    @Test("X3: units fit up to the limit in a window, then wait for the next; keys count apart")
    func perWindow() {
        let quota = WindowQuota(limit: 5, window: .seconds(60))
        let start = Date(timeIntervalSince1970: 6_000)  // a window's first second
        #expect(quota.take(3, for: "a", now: start) == nil)
        #expect(quota.take(2, for: "a", now: start.addingTimeInterval(10)) == nil)
        #expect(quota.take(1, for: "a", now: start.addingTimeInterval(20)) == .seconds(40))
        #expect(quota.take(5, for: "b", now: start.addingTimeInterval(20)) == nil)
        #expect(quota.take(1, for: "a", now: start.addingTimeInterval(60)) == nil)
        #expect(quota.take(6, for: "c", now: start) != nil, "a request larger than the limit never fits")
    }

    @Test("X3: units given back (another quota refused the request) count no more; a turned window keeps nothing")
    func givenBack() {
        let quota = WindowQuota(limit: 5, window: .seconds(60))
        let start = Date(timeIntervalSince1970: 6_000)
        #expect(quota.take(5, for: "a", now: start) == nil)
        quota.giveBack(3, for: "a", now: start.addingTimeInterval(1))
        #expect(quota.take(3, for: "a", now: start.addingTimeInterval(2)) == nil)
        #expect(quota.take(1, for: "a", now: start.addingTimeInterval(3)) != nil)
        quota.giveBack(5, for: "a", now: start.addingTimeInterval(61))
        #expect(quota.take(5, for: "a", now: start.addingTimeInterval(62)) == nil, "the new window starts from nothing")
        #expect(quota.take(1, for: "a", now: start.addingTimeInterval(63)) != nil, "and a give-back of an old window added nothing")
    }

    @Test("X3: a flood of distinct keys cannot grow the table past its bound, nor send freely once it is full; counted keys stay limited")
    func boundedKeys() {
        let quota = WindowQuota(limit: 1, window: .seconds(60), maxKeys: 3, overflowFactor: 4)
        let now = Date(timeIntervalSince1970: 6_000)
        for key in ["a", "b", "c"] { #expect(quota.take(for: key, now: now) == nil) }
        #expect(quota.take(for: "a", now: now) != nil)
        // The table is full of this window's keys: new keys share an overflow allowance of 4 × the limit, whatever
        // their number (before, each new key passed uncounted, so distinct addresses sent freely).
        let overflowed = (0..<10).map { quota.take(for: "new-\($0)", now: now) == nil }
        #expect(overflowed == [true, true, true, true, false, false, false, false, false, false])
        // A unit given back returns to the allowance.
        quota.giveBack(1, for: "new-0", now: now)
        #expect(quota.take(for: "new-10", now: now) == nil)
        // Keys of past windows make room: the next window counts "d" on its own.
        #expect(quota.take(for: "d", now: now.addingTimeInterval(60)) == nil)
        #expect(quota.take(for: "d", now: now.addingTimeInterval(61)) != nil)
    }

    @Test("X3: Retry-After is whole seconds, at least one")
    func retryAfter() {
        let error = APIError.rateLimited("too much", retryAfter: .milliseconds(200))
        #expect(error.status == .tooManyRequests && error.code == "rate_limited" && error.headers[.retryAfter] == "1")
    }
}
