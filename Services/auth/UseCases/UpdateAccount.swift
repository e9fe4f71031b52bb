import Foundation

/// An admin edits, bans or re-roles an account (U5). The store announces a role only when it changed and ends a
/// banned account's sessions (`AccountChange`).
package struct UpdateAccount: Sendable {
    package let accounts: any AccountAdministration

    package init(accounts: any AccountAdministration) {
        self.accounts = accounts
    }

    package func run(id: UUID, change: AccountChange) async throws {
        guard try await accounts.update(id: id, displayName: change.displayName, role: change.role, banned: change.banned) else {
            throw AccountRefusal.unknownAccount
        }
    }
}

/// An admin or payment operation on an account that is not there.
package enum AccountRefusal: Error, Equatable {
    case unknownAccount
}
