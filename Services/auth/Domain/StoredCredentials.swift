import Foundation

/// An account with the hashes the login flows compare against.
package struct StoredCredentials: Sendable {
    package var account: Account
    package var passwordHash: String?
    package var pinHash: String?

    package init(account: Account, passwordHash: String? = nil, pinHash: String? = nil) {
        self.account = account
        self.passwordHash = passwordHash
        self.pinHash = pinHash
    }
}
