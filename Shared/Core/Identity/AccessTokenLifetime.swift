import Foundation

/// How long an access token may live. auth's `ACCESS_TOKEN_TTL_SECONDS` stops at `maximum`, and every service
/// refuses a token signed to live longer (`AccessTokenVerifier`). An erased account is remembered in memory for
/// about this long (`ErasedAccounts.retention`): after that, every token issued before the erasure has expired.
public enum AccessTokenLifetime {
    /// One hour: how long a refund, a ban or a deletion can take to reach a check that reads only the token.
    public static let maximum: TimeInterval = 3_600
    /// What the issued and expiry times may add to `maximum`: JWT times are whole seconds.
    public static let leeway: TimeInterval = 60

    /// Whether a token issued at `issuedAt` and expiring at `expiresAt` lives no longer than auth issues them.
    public static func isWithinMaximum(issuedAt: Date, expiresAt: Date) -> Bool {
        expiresAt.timeIntervalSince(issuedAt) <= maximum + leeway
    }
}
