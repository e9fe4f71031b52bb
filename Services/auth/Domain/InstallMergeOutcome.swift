import Foundation

/// What folding an install account into a signed-in account did (U8).
package enum InstallMergeOutcome: Equatable {
    case merged(from: UUID)
    /// The refresh token is unknown, ended or expired.
    case invalidToken
    /// The token is another kind of account's, or the caller's own.
    case notAnInstall
    case noAccount
}
