import Foundation
import PlatformCore
import PlatformPostgres

/// `Invitations` in one transaction over the accounts and their reset links.
struct PostgresInvitations: Invitations {
    let accounts: AccountStore
    let resets: PasswordResetStore
    let linkBase: String

    func invite(email: EmailAddress, role: UserRole) async throws -> Account? {
        let (accounts, resets, linkBase) = (accounts, resets, linkBase)
        return try await accounts.client.inTransaction(logger: accounts.logger) { connection -> Account? in
            guard let account = try await accounts.create(email: email, kind: .dashboard, role: role, passwordHash: nil, pinHash: nil, on: connection)
            else { return nil }
            try await resets.invite(account, email: email, linkBase: linkBase, on: connection)
            return account
        }
    }
}
