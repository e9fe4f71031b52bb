import Foundation
import NIOHTTP1
import Synchronization
import Testing
import UnitTestSupport

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

/// The pieces of the provider HTTP client that decide when to call a provider again (W6, P1), and the
/// verified-token cache (U7).
@Suite("Provider HTTP policy and the verified-token cache")
struct ProviderHTTPTests {
    @Test("W6: Retry-After is read as seconds or as an HTTP date")
    func retryAfterForms() {
        #expect(ProviderHTTPClient.retryAfter(HTTPHeaders([("Retry-After", "120")])) == .seconds(120))
        let inTwoMinutes = Date().addingTimeInterval(120)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let fromDate = ProviderHTTPClient.retryAfter(HTTPHeaders([("Retry-After", formatter.string(from: inTwoMinutes))]))
        #expect(fromDate.map { $0 > .seconds(115) && $0 <= .seconds(120) } == true)
        #expect(ProviderHTTPClient.retryAfter(HTTPHeaders([("Retry-After", "soon")])) == nil)
        #expect(ProviderHTTPClient.retryAfter(HTTPHeaders()) == nil)
    }

    @Test("W6: the circuit opens after the threshold, refuses during the cool-down, then lets one trial through")
    func circuitBreaker() async throws {
        let clock = ManualInstant()
        let circuit = CircuitBreaker(failureThreshold: 2, coolDown: .milliseconds(200), now: clock.now)
        try await circuit.permit()
        await circuit.recordFailure()
        try await circuit.permit()
        await circuit.recordFailure()
        await #expect(throws: ProviderError.self) { try await circuit.permit() }
        clock.advance(by: .milliseconds(199))
        await #expect(throws: ProviderError.self, "still cooling down") { try await circuit.permit() }
        clock.advance(by: .milliseconds(1))
        try await circuit.permit()
        await #expect(throws: ProviderError.self, "only one trial at a time") { try await circuit.permit() }
        await circuit.recordSuccess()
        try await circuit.permit()
        #expect(await circuit.isOpen == false)
    }

    @Test("W6: a trial that was abandoned (its caller cancelled) lets the next caller try, without counting a failure")
    func abandonedTrial() async throws {
        let clock = ManualInstant()
        let circuit = CircuitBreaker(failureThreshold: 1, coolDown: .milliseconds(50), now: clock.now)
        try await circuit.permit()
        await circuit.recordFailure()
        clock.advance(by: .milliseconds(50))
        try await circuit.permit()
        await #expect(throws: ProviderError.self, "the trial is under way") { try await circuit.permit() }
        await circuit.recordAbandoned()
        try await circuit.permit()
        await circuit.recordSuccess()
        #expect(await circuit.isOpen == false)
    }

    @Test("P1: the rate limiter spaces requests; the concurrency limit lets one through at a time")
    func rateAndConcurrencyLimits() async throws {
        let limiter = RateLimiter(requestsPerSecond: 20)
        let started = ContinuousClock.now
        for _ in 0..<5 { try await limiter.acquire() }
        #expect(ContinuousClock.now - started >= .milliseconds(190), "five requests at 20/s take at least 200 ms minus the first")
        let limit = ConcurrencyLimit(1)
        let inFlight = InFlightCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await limit.withSlot {
                        await inFlight.enter()
                        try await Task.sleep(for: .milliseconds(20))
                        await inFlight.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await inFlight.maximum == 1)
    }

    @Test("U7: a verified token is remembered, but never past its expiry")
    func tokenCacheHonoursExpiry() async throws {
        let tokens = try TestTokens()
        let verifier = try await AccessTokenVerifier(publicKey: tokens.publicKeyBase64URL, issuer: tokens.issuer)
        let token = try await tokens.token(userId: "short-lived", expiresIn: 1.5)
        #expect(try await verifier.verify(token).id == "short-lived")
        #expect(try await verifier.verify(token).id == "short-lived")
        try await Task.sleep(for: .milliseconds(1_700))
        await #expect(throws: AccessTokenVerifier.Failure.invalidToken) { try await verifier.verify(token) }
    }
}

actor InFlightCounter {
    private var current = 0
    private(set) var maximum = 0

    func enter() {
        current += 1
        maximum = max(maximum, current)
    }

    func leave() { current -= 1 }
}

/// A `ContinuousClock` instant a test moves by hand.
final class ManualInstant: Sendable {
    private let current = Mutex(ContinuousClock.now)

    var now: @Sendable () -> ContinuousClock.Instant { { [self] in current.withLock { $0 } } }

    func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}
