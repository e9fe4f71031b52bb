import Foundation

/// A session renewed with its refresh token (U7): each token is used once; a used one ends the session it
/// belonged to (the store's rule); a banned account gets no new tokens.
package struct RefreshSession: Sendable {
    package let tokens: any RefreshTokens
    package let accounts: any CredentialRepository

    package init(tokens: any RefreshTokens, accounts: any CredentialRepository) {
        self.tokens = tokens
        self.accounts = accounts
    }

    package enum Refusal: Error, Equatable {
        case invalidToken
        case reused
        case banned
    }

    /// The account and its new refresh token.
    package func run(refreshToken: String?) async throws -> (account: Account, refreshToken: String) {
        guard let token = nonEmpty(refreshToken), token.count <= 128 else { throw Refusal.invalidToken }
        switch try await tokens.rotate(token) {
        case .invalid:
            throw Refusal.invalidToken
        case .reused:
            throw Refusal.reused
        case .rotated(let accountId, let newToken):
            guard let account = try await accounts.credentials(id: accountId)?.account else { throw Refusal.invalidToken }
            guard !account.banned else { throw Refusal.banned }
            return (account, newToken)
        }
    }
}
