import Foundation

/// Sets a dashboard password from a mailed reset link (U3). An unusable link counts against the caller's address
/// like a failed login; a usable one is checked before the bcrypt hash is paid for.
package struct ResetPassword: Sendable {
    package let resets: any PasswordResets
    package let tries: TryLedger
    package let hasher: any SecretHashing
    /// Failed requests of any kind per client address.
    package let addressLimit: AttemptLimit

    package init(resets: any PasswordResets, tries: TryLedger, hasher: any SecretHashing, addressLimit: AttemptLimit) {
        self.resets = resets
        self.tries = tries
        self.hasher = hasher
        self.addressLimit = addressLimit
    }

    package enum Refusal: Error, Equatable {
        case emptyField
        case passwordsDiffer
        case weakPassword
        /// The link is unknown, used or expired.
        case linkInvalid
    }

    package func run(token: String?, newPassword: String?, confirmation: String?, clientKey: String) async throws {
        guard let token = nonEmpty(token), let new = nonEmpty(newPassword), let confirmation = nonEmpty(confirmation)
        else { throw Refusal.emptyField }
        guard new == confirmation else { throw Refusal.passwordsDiffer }
        guard CredentialPolicy.isAcceptablePassword(new) else { throw Refusal.weakPassword }
        let addressTry = try await tries.take(.address, subject: clientKey, limit: addressLimit)
        guard try await resets.isUsable(token: token) else { throw Refusal.linkInvalid }
        let hash = try await tries.givingBack([addressTry]) { try await hasher.hash(new) }
        guard try await resets.complete(token: token, passwordHash: hash) else { throw Refusal.linkInvalid }
        try await tries.release(addressTry)
    }
}
