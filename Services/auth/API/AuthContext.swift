import Foundation
import Logging
import Shared

/// Everything the auth operations use, built once in `buildApplication`.
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
    func startSession(for account: Account, next: FlowStep? = nil) async throws -> Components.Schemas.Session {
        let refreshToken = try await sessions.start(accountId: account.id)
        try await accounts.recordLogin(account)
        return try await session(for: account, refreshToken: refreshToken, next: next)
    }

    /// The session answer for `account` with a refresh token already stored.
    func session(for account: Account, refreshToken: String, next: FlowStep? = nil) async throws -> Components.Schemas.Session {
        Components.Schemas.Session(
            accessToken: try await issuer.accessToken(for: account), refreshToken: refreshToken, tokenType: .bearer,
            expiresIn: issuer.accessTokenLifetime.rounded(.towardZero).roundedClampedInt, account: .init(account),
            next: next.map(Components.Schemas.FlowStep.init))
    }

    /// Throws 429 while `subject` has used up `limit` for `kind`.
    /// Takes one try before the check it limits (see `AttemptStore.reserve`); 429 with `Retry-After` when none is left.
    func takeTry(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptTry {
        switch try await attempts.reserve(kind, subject: subject, limit: limit) {
        case .taken(let attempt): return attempt
        case .locked(let until): throw AuthErrors.tooManyAttempts(until: until, now: Date())
        }
    }

    /// Checks a password or PIN; when the bcrypt pool refuses (429 `busy`), the tries taken for this check are
    /// given back first: a request that was never evaluated is no failure.
    func verify(_ secret: String, against hash: String, tries: [AttemptTry]) async throws -> Bool {
        do {
            return try await hasher.verify(secret, against: hash)
        } catch {
            for attempt in tries { try await attempts.release(attempt) }
            throw error
        }
    }

    /// Hashes a new password or PIN; when the bcrypt pool refuses, the tries taken for this request are given
    /// back first (see `verify(_:against:tries:)`).
    func hash(_ secret: String, tries: [AttemptTry]) async throws -> String {
        do {
            return try await hasher.hash(secret)
        } catch {
            for attempt in tries { try await attempts.release(attempt) }
            throw error
        }
    }

    /// Counts one recovery mail to `account` from the caller's address; 429 when either has had its share.
    func takeRecoveryMail(for account: UUID) async throws {
        let addressTry = try await takeTry(
            .recoveryMailAddress, subject: RequestScope.clientKey, limit: configuration.recoveryMailsPerAddress)
        do {
            _ = try await takeTry(.recoveryMail, subject: account.uuidString, limit: configuration.recoveryMailsPerAccount)
        } catch {
            try await attempts.release(addressTry)
            throw error
        }
    }

    func checkNotLocked(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws {
        let now = Date()
        if let until = limit.lockedUntil(failures: try await attempts.failures(kind, subject: subject, within: limit.window), now: now) {
            throw AuthErrors.tooManyAttempts(until: until, now: now)
        }
    }
}
