import Foundation

/// An install account is folded into the account its app signed in to (U9): its payments, paid features and
/// the profile fields the target has not set move over, then it ends. Only a plain install of the role user merges
/// (`InstallMerge`).
package struct MergeInstallAccount: Sendable {
    package let merges: any InstallMerges

    package init(merges: any InstallMerges) {
        self.merges = merges
    }

    package enum Refusal: Error, Equatable {
        /// The install's refresh token is unknown, ended or expired.
        case invalidToken
        /// The token is another kind of account's, or the caller's own.
        case notAnInstall
        /// The caller's own account is gone.
        case noAccount
    }

    /// The id of the install account that was merged.
    package func run(installRefreshToken: String, into: UUID) async throws -> UUID {
        switch try await merges.mergeInstall(refreshToken: installRefreshToken, into: into) {
        case .merged(let from): from
        case .invalidToken: throw Refusal.invalidToken
        case .notAnInstall: throw Refusal.notAnInstall
        case .noAccount: throw Refusal.noAccount
        }
    }
}
