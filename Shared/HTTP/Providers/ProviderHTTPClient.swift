import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlatformCore
import Tracing

/// How a service talks to one external provider over HTTP: a timeout per request, retries of transient
/// failures with jittered exponential backoff (never sooner than the provider's `Retry-After`), a request
/// rate limit, at most `maxConcurrentRequests` in flight, and a circuit breaker.
public struct ProviderHTTPPolicy: Sendable {
    public var timeout: Duration
    public var maxAttempts: Int
    public var baseBackoff: Duration
    public var maxBackoff: Duration
    public var requestsPerSecond: Double
    public var circuitFailureThreshold: Int
    public var circuitCoolDown: Duration
    /// 1 for providers whose usage rules allow one request at a time (Overpass, Nominatim).
    public var maxConcurrentRequests: Int
    /// A 4xx answer (but 408 and 429) is the provider's verdict on what was sent, not a failure of the provider: it
    /// does not count towards opening the circuit. For a provider that judges what callers bring (Play Integrity's
    /// 400 for a token it cannot decode), whose circuit made-up input must not open for everyone.
    public var clientErrorsAreAnswers: Bool

    public init(
        timeout: Duration, maxAttempts: Int, baseBackoff: Duration, maxBackoff: Duration, requestsPerSecond: Double,
        circuitFailureThreshold: Int, circuitCoolDown: Duration, maxConcurrentRequests: Int = 8, clientErrorsAreAnswers: Bool = false
    ) {
        self.timeout = timeout
        self.maxAttempts = maxAttempts
        self.baseBackoff = baseBackoff
        self.maxBackoff = maxBackoff
        self.requestsPerSecond = requestsPerSecond
        self.circuitFailureThreshold = circuitFailureThreshold
        self.circuitCoolDown = circuitCoolDown
        self.maxConcurrentRequests = maxConcurrentRequests
        self.clientErrorsAreAnswers = clientErrorsAreAnswers
    }
}

public final class ProviderHTTPClient: Sendable {
    public let provider: String
    public let policy: ProviderHTTPPolicy
    public let circuit: CircuitBreaker
    private let http: HTTPClient
    private let limiter: RateLimiter
    private let slots: ConcurrencyLimit
    private let userAgent: String
    private let logger: Logger

    /// `userAgent` names the software, as provider usage policies ask.
    public init(provider: String, policy: ProviderHTTPPolicy, http: HTTPClient, userAgent: String, logger: Logger) {
        self.provider = provider
        self.policy = policy
        self.http = http
        self.userAgent = userAgent
        self.logger = logger
        limiter = RateLimiter(requestsPerSecond: policy.requestsPerSecond)
        slots = ConcurrencyLimit(policy.maxConcurrentRequests)
        circuit = CircuitBreaker(failureThreshold: policy.circuitFailureThreshold, coolDown: policy.circuitCoolDown)
    }

    /// GETs `url` and returns the body of a 2xx answer, or throws the last `ProviderError`.
    public func get(_ url: String, headers: [(String, String)] = []) async throws -> ByteBuffer {
        try await send(.GET, url, headers: headers, body: nil)
    }

    /// Sends a request and returns the body of a 2xx answer, or throws the last `ProviderError`.
    public func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: String?) async throws -> ByteBuffer {
        try await circuit.permit()
        var attempt = 1
        while true {
            do {
                let answer = try await slots.withSlot { try await self.attempt(method, url, headers: headers, body: body) }
                await circuit.recordSuccess()
                return answer
            } catch let error as ProviderError {
                guard error.isTransient, attempt < policy.maxAttempts else {
                    if policy.clientErrorsAreAnswers, case .status(let code, _) = error, (400..<500).contains(code), !error.isTransient {
                        await circuit.recordSuccess()
                    } else {
                        await circuit.recordFailure()
                    }
                    throw error
                }
                let delay = backoff(attempt: attempt, retryAfter: error.retryAfter)
                logger.warning(
                    "provider request failed, retrying",
                    metadata: ["provider": "\(provider)", "attempt": "\(attempt)", "error": "\(error)", "delay": "\(delay)"])
                try await sleepOrAbandon(delay)
                attempt += 1
            } catch {
                await circuit.recordAbandoned()
                throw error
            }
        }
    }

    private func sleepOrAbandon(_ delay: Duration) async throws {
        do {
            try await Task.sleep(for: delay)
        } catch {
            await circuit.recordAbandoned()
            throw error
        }
    }

    /// One try, as a client span of the current trace (no `traceparent` goes to the provider: its systems are
    /// not part of ours).
    private func attempt(_ method: HTTPMethod, _ url: String, headers: [(String, String)], body: String?) async throws -> ByteBuffer {
        try await withSpan("\(method.rawValue) \(provider)", ofKind: .client) { span in
            span.attributes["http.request.method"] = method.rawValue
            span.attributes["server.address"] = URL(string: url)?.host ?? ""
            return try await attemptInSpan(method, url, headers: headers, body: body, span: span)
        }
    }

    private func attemptInSpan(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)], body: String?, span: any Span
    ) async throws -> ByteBuffer {
        try await limiter.acquire()
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .nanoseconds(Int64(policy.timeout.seconds * 1e9)))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ProviderError.unreachable("\(error)")
        }
        let answer: ByteBuffer
        do {
            answer = try await response.body.collect(upTo: 32 * 1024 * 1024)
        } catch {
            throw ProviderError.unreachable("reading the body failed: \(error)")
        }
        span.attributes["http.response.status_code"] = Int(response.status.code)
        guard (200..<300).contains(response.status.code) else {
            throw ProviderError.status(code: Int(response.status.code), retryAfter: Self.retryAfter(response.headers))
        }
        return answer
    }

    /// `Retry-After` in seconds or as an HTTP date.
    static func retryAfter(_ headers: HTTPHeaders) -> Duration? {
        guard let text = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text) {
            // `Double` reads "inf" and "1e999"; `.seconds` traps on those. A day is longer than any honest wait.
            guard seconds.isFinite else { return .seconds(86_400) }
            return .seconds(min(max(0, seconds), 86_400))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { .seconds(max(0, $0.timeIntervalSinceNow)) }
    }

    /// Full jitter: a random delay up to the exponential bound, but never sooner than the provider asked.
    private func backoff(attempt: Int, retryAfter: Duration?) -> Duration {
        let bound = min(policy.maxBackoff.seconds, policy.baseBackoff.seconds * pow(2, Double(attempt - 1)))
        let jittered = Double.random(in: (bound / 2)...max(bound, bound / 2 + 0.000_001))
        return .seconds(max(jittered, min(retryAfter?.seconds ?? 0, policy.maxBackoff.seconds)))
    }
}

extension ProviderError {
    public var retryAfter: Duration? {
        if case .status(_, let retryAfter) = self { return retryAfter }
        return nil
    }
}

/// At most `limit` operations at once; the others wait in order.
actor ConcurrencyLimit {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { available = max(1, limit) }

    func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if available > 0 {
            available -= 1
        } else {
            await withCheckedContinuation { waiters.append($0) }
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        if waiters.isEmpty { available += 1 } else { waiters.removeFirst().resume() }
    }
}
