import Foundation

extension APIError {
    /// 429 `rate_limited` with `Retry-After` in whole seconds (at least 1).
    public static func rateLimited(_ what: String, retryAfter: Duration) -> APIError {
        let seconds = max(1, retryAfter.components.seconds + (retryAfter.components.attoseconds > 0 ? 1 : 0))
        return .tooManyRequests(code: "rate_limited", message: "\(what); try again in \(seconds) s", retryAfterSeconds: Double(seconds))
    }
}
