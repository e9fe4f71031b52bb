import Foundation

/// Logout (U1, D26): ends the session of one refresh token of the caller's.
package struct EndSession: Sendable {
    package let sessions: any SessionEnds

    package init(sessions: any SessionEnds) {
        self.sessions = sessions
    }

    package enum Refusal: Error, Equatable {
        /// No open session of the caller's has this token.
        case noSession
    }

    package func run(refreshToken: String, accountId: UUID) async throws {
        guard try await sessions.end(refreshToken, accountId: accountId) else { throw Refusal.noSession }
    }
}
