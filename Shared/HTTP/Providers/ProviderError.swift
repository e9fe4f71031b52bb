/// Why an external provider (weather, places, push) gave no data. Every case is expected in operation:
/// callers keep serving what they have, never crash.
public enum ProviderError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The provider answered with an error status; `retryAfter` from its `Retry-After` header.
    case status(code: Int, retryAfter: Duration?)
    /// No answer in time, or the connection failed.
    case unreachable(String)
    /// The answer could not be decoded as the provider's format.
    case malformedResponse(String)
    /// The provider answered 200 with an error of its own (a bad key, an exhausted quota).
    case rejected(String)
    /// Too many recent failures: requests are not sent until the circuit's cool-down ends.
    case circuitOpen(until: ContinuousClock.Instant)

    public var description: String {
        switch self {
        case .status(let code, _): "provider answered HTTP \(code)"
        case .unreachable(let reason): "provider unreachable: \(reason)"
        case .malformedResponse(let reason): "provider response malformed: \(reason)"
        case .rejected(let reason): "provider rejected the request: \(reason)"
        case .circuitOpen: "provider circuit open after repeated failures"
        }
    }

    /// Whether trying the same request again may help.
    public var isTransient: Bool {
        switch self {
        case .status(let code, _): code == 429 || code == 408 || code >= 500
        case .unreachable: true
        case .malformedResponse, .rejected, .circuitOpen: false
        }
    }
}
