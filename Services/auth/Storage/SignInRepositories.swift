import Foundation

/// Accounts made without a password: one per app install (issue 29).
protocol InstallAccounts: Sendable {
    func createInstall(app: InstallApp, installId: String) async throws -> Account
}

/// Accounts of identities an OpenID Connect provider vouches for (U5), and the nonces they signed in with.
protocol ExternalIdentities: Sendable {
    /// False when the nonce was used before by this issuer (a replayed token).
    func useNonce(_ nonce: String, issuer: String, until expiry: Date) async throws -> Bool
    func findOrCreateExternal(subject: String, displayName: String?, app: InstallApp) async throws -> Account
}

/// Rotating refresh tokens (U7).
protocol RefreshTokens: Sendable {
    func rotate(_ token: String) async throws -> SessionStore.RefreshOutcome
}

/// The end of an account with everything it owns (issue 29).
protocol AccountEnds: Sendable {
    /// False when there is no such account.
    func delete(_ id: UUID, by: String) async throws -> Bool
}

extension AccountStore: InstallAccounts, ExternalIdentities {}
extension SessionStore: RefreshTokens {}
extension AccountEndStore: AccountEnds {}
