import Foundation
import PlatformEvents

/// An admin grants a feature to an account (U5): granting one it holds changes nothing but is announced again.
package struct GrantEntitlement: Sendable {
    package let accounts: any AccountAdministration

    package init(accounts: any AccountAdministration) {
        self.accounts = accounts
    }

    package func run(_ entitlement: Entitlement, to id: UUID) async throws {
        guard try await accounts.grant(entitlement, to: id) else { throw AccountRefusal.unknownAccount }
    }
}

/// An admin takes a feature back (U5); revoking one the account does not hold is announced too, so a service that
/// missed the grant's order still ends revoked.
package struct RevokeEntitlement: Sendable {
    package let accounts: any AccountAdministration

    package init(accounts: any AccountAdministration) {
        self.accounts = accounts
    }

    package func run(_ entitlement: Entitlement, from id: UUID) async throws {
        guard try await accounts.revoke(entitlement, from: id) else { throw AccountRefusal.unknownAccount }
    }
}
