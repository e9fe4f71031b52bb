import Foundation
import PlatformCore
import PlatformEvents

/// An account as the service reads it. Hashes never leave the repository except to the hasher.
package struct Account: Sendable, Equatable {
    package var id: UUID
    package var email: String?
    package var kind: AccountKind
    package var role: UserRole
    package var displayName: String?
    package var entitlements: Set<String>
    package var banned: Bool
    package var createdAt: Date
    /// When the install proved itself a real app on a real device (`InstallAttestation`); nil for every other account.
    package var attestedAt: Date? = nil
    /// When a survey account's owner confirmed its address with the mailed code (N4); nil until then.
    package var emailVerifiedAt: Date? = nil

    package init(
        id: UUID, email: String? = nil, kind: AccountKind, role: UserRole, displayName: String? = nil, entitlements: Set<String>, banned: Bool,
        createdAt: Date, attestedAt: Date? = nil, emailVerifiedAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.kind = kind
        self.role = role
        self.displayName = displayName
        self.entitlements = entitlements
        self.banned = banned
        self.createdAt = createdAt
        self.attestedAt = attestedAt
        self.emailVerifiedAt = emailVerifiedAt
    }
}
