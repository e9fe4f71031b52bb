import Foundation
import PlatformEvents

/// Accounts made without a password: one per app install (U8).
package protocol InstallAccounts: Sendable {
    func createInstall(app: InstallApp, installId: String) async throws -> Account
    /// An attested install's account, its token recorded as used in the same transaction; nil when the token attested
    /// an account before (a replay).
    func createInstall(app: InstallApp, installId: String, attested: AttestedInstall) async throws -> Account?
}

/// Accounts of identities an OpenID Connect provider vouches for (U5), and the nonces they signed in with.
package protocol ExternalIdentities: Sendable {
    /// False when the nonce was used before by this issuer (a replayed token).
    func useNonce(_ nonce: String, issuer: String, until expiry: Date) async throws -> Bool
    func findOrCreateExternal(subject: String, displayName: String?, app: InstallApp) async throws -> Account
}

/// Rotating refresh tokens (U7).
package protocol RefreshTokens: Sendable {
    func rotate(_ token: String) async throws -> RefreshOutcome
}

/// The end of an account with everything it owns (U9).
package protocol AccountEnds: Sendable {
    /// False when there is no such account.
    func delete(_ id: UUID, by: DeletionCause) async throws -> Bool
}

/// Logout (U1): the end of one session.
package protocol SessionEnds: Sendable {
    /// False when the token is unknown or not the account's.
    func end(_ token: String, accountId: UUID) async throws -> Bool
}

/// An install account folded into the account its app signed in to (U8), in one transaction.
package protocol InstallMerges: Sendable {
    func mergeInstall(refreshToken: String, into: UUID) async throws -> InstallMergeOutcome
}

/// The first refresh token of a new session (U7).
package protocol SessionStarts: Sendable {
    func start(accountId: UUID) async throws -> String
}

/// Successful logins, announced for the analytics (`user.logged-in`).
package protocol LoginRecords: Sendable {
    func recordLogin(_ account: Account) async throws
}
