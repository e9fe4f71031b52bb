import Foundation

/// Every sign-in's last step (U1, U4, U5, U8): a new session for an account a sign-in use case let in, and
/// the login announced. Tokens are issued at the HTTP edge from the refresh token returned.
package struct OpenSession: Sendable {
    package let sessions: any SessionStarts
    package let logins: any LoginRecords

    package init(sessions: any SessionStarts, logins: any LoginRecords) {
        self.sessions = sessions
        self.logins = logins
    }

    /// The new session's first refresh token.
    package func run(for account: Account) async throws -> String {
        let refreshToken = try await sessions.start(accountId: account.id)
        try await logins.recordLogin(account)
        return refreshToken
    }
}
