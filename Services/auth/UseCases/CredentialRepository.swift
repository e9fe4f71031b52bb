import Foundation
import PlatformCore
import PlatformEvents

/// Accounts with the hashes the login flows compare against: Postgres in the service (`AccountStore`), memory in
/// the unit tests.
package protocol CredentialRepository: Sendable {
    func credentials(email: EmailAddress) async throws -> StoredCredentials?
    func credentials(id: UUID) async throws -> StoredCredentials?
    /// Replaces the password (or PIN) hash and ends every session of the account.
    func setPasswordHash(_ hash: String, for id: UUID) async throws
    /// A new account with its hash; nil when the email address has an account already.
    func create(email: EmailAddress?, kind: AccountKind, role: UserRole, passwordHash: String?, pinHash: String?) async throws -> Account?
}
