import Foundation

/// Logout (U1, D26): ends the session of one refresh token of the caller's.
struct EndSession: Sendable {
    let sessions: any SessionEnds

    enum Refusal: Error, Equatable {
        /// No open session of the caller's has this token.
        case noSession
    }

    func run(refreshToken: String, accountId: UUID) async throws {
        guard try await sessions.end(refreshToken, accountId: accountId) else { throw Refusal.noSession }
    }
}
