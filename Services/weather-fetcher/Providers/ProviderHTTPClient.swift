import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// How the service talks to one provider over HTTP: a timeout per request, retries of transient failures
/// with jittered exponential backoff (honouring `Retry-After`), a request rate limit, and a circuit breaker.
struct ProviderHTTPPolicy: Sendable {
    var timeout: Duration
    var maxAttempts: Int
    var baseBackoff: Duration
    var maxBackoff: Duration
    var requestsPerSecond: Double
    var circuitFailureThreshold: Int
    var circuitCoolDown: Duration
}

final class ProviderHTTPClient: Sendable {
    let provider: String
    let policy: ProviderHTTPPolicy
    private let http: HTTPClient
    private let limiter: RateLimiter
    let circuit: CircuitBreaker
    private let logger: Logger

    init(provider: String, policy: ProviderHTTPPolicy, http: HTTPClient, logger: Logger) {
        self.provider = provider
        self.policy = policy
        self.http = http
        self.logger = logger
        limiter = RateLimiter(requestsPerSecond: policy.requestsPerSecond)
        circuit = CircuitBreaker(failureThreshold: policy.circuitFailureThreshold, coolDown: policy.circuitCoolDown)
    }

    /// GETs `url` and returns the body of a 2xx answer, or throws the last `ProviderError`.
    func get(_ url: String) async throws -> ByteBuffer {
        try await circuit.permit()
        var attempt = 1
        while true {
            do {
                let body = try await attemptGet(url)
                await circuit.recordSuccess()
                return body
            } catch let error as ProviderError {
                guard error.isTransient, attempt < policy.maxAttempts else {
                    await circuit.recordFailure()
                    throw error
                }
                let delay = backoff(attempt: attempt, retryAfter: error.retryAfter)
                logger.warning(
                    "provider request failed, retrying",
                    metadata: ["provider": "\(provider)", "attempt": "\(attempt)", "error": "\(error)", "delay": "\(delay)"])
                try await Task.sleep(for: delay)
                attempt += 1
            }
        }
    }

    private func attemptGet(_ url: String) async throws -> ByteBuffer {
        try await limiter.acquire()
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "mobile-backend-platform weather-fetcher")
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .nanoseconds(Int64(policy.timeout.seconds * 1e9)))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ProviderError.unreachable("\(error)")
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: 32 * 1024 * 1024)
        } catch {
            throw ProviderError.unreachable("reading the body failed: \(error)")
        }
        guard (200..<300).contains(response.status.code) else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap(Double.init).map { Duration.seconds($0) }
            throw ProviderError.status(code: Int(response.status.code), retryAfter: retryAfter)
        }
        return body
    }

    /// Full jitter: a random delay up to the exponential bound, but never sooner than the provider asked.
    private func backoff(attempt: Int, retryAfter: Duration?) -> Duration {
        let bound = min(policy.maxBackoff.seconds, policy.baseBackoff.seconds * pow(2, Double(attempt - 1)))
        let jittered = Double.random(in: (bound / 2)...max(bound, bound / 2 + 0.000_001))
        return .seconds(max(jittered, min(retryAfter?.seconds ?? 0, policy.maxBackoff.seconds)))
    }
}

extension ProviderError {
    var retryAfter: Duration? {
        if case .status(_, let retryAfter) = self { return retryAfter }
        return nil
    }
}
