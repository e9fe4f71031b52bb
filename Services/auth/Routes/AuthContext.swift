import Foundation
import Logging
import Shared

/// Everything the auth routes use, built once in `buildApplication`.
struct AuthContext: Sendable {
    let configuration: AuthConfiguration
    let accounts: AccountStore
    let attempts: AttemptStore
    let sessions: SessionStore
    let resets: PasswordResetStore
    let pinResets: PinResetStore
    let hasher: PasswordHasher
    let issuer: TokenIssuer

    /// A new session for `account`, with `user.logged-in` published.
    func startSession(for account: Account, next: String? = nil) async throws -> SessionResponse {
        let refreshToken = try await sessions.start(accountId: account.id)
        try await accounts.recordLogin(account)
        return SessionResponse(
            accessToken: try await issuer.accessToken(for: account), refreshToken: refreshToken,
            expiresIn: issuer.accessTokenLifetime.rounded(.towardZero).roundedClampedInt, account: AccountView(account), next: next)
    }

    /// Throws 429 while `subject` has used up `limit` for `kind`.
    func checkNotLocked(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws {
        let now = Date()
        if let until = limit.lockedUntil(failures: try await attempts.failures(kind, subject: subject, within: limit.window), now: now) {
            throw AuthErrors.tooManyAttempts(until: until, now: now)
        }
    }
}
