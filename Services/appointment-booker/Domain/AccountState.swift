import PlatformCore

/// What auth's `auth.users` events said about an account (U5, U6): its role, whether it is banned, and the
/// entitlements granted or revoked after its token was issued. A token alone is not enough once these say
/// otherwise.
package struct AccountState: Sendable, Equatable {
    package var role: UserRole?
    package var banned: Bool
    /// Entitlements whose newest event was a revocation.
    package var revoked: Set<String>
    /// Entitlements whose newest event was a grant.
    package var granted: Set<String> = []

    package init(role: UserRole? = nil, banned: Bool, revoked: Set<String>, granted: Set<String> = []) {
        self.role = role
        self.banned = banned
        self.revoked = revoked
        self.granted = granted
    }

    /// An account no event has named yet: its token speaks for it.
    package static let unknown = AccountState(role: nil, banned: false, revoked: [])

    /// U6: an entitlement holds when the newest event about it granted it, or, with no event seen yet or a
    /// grant, when the token names it; a revocation newer than any grant refuses it whatever the token says.
    package func allows(_ entitlement: String, claimed: Bool) -> Bool {
        !revoked.contains(entitlement) && (claimed || granted.contains(entitlement))
    }

    /// U5: a partner token acts as the partner until the events ban the account or give it another role.
    package func checkActsAsPartner() throws(AccountRefusal) {
        if banned { throw .accountBanned }
        if let role, role != .partner { throw .notAPartner }
    }

    /// U6: a paid feature needs an account not banned that holds the entitlement (`allows`).
    package func checkMayUse(_ entitlement: String, claimed: Bool) throws(AccountRefusal) {
        if banned { throw .accountBanned }
        guard allows(entitlement, claimed: claimed) else { throw .entitlementRequired(entitlement) }
    }
}

/// Why an account's state refuses what its token asks (U5, U6); `BookingErrors.answer(for:)` makes each an HTTP
/// error.
package enum AccountRefusal: Error, Equatable {
    case accountBanned
    case notAPartner
    /// A partner acting on another partner's profile.
    case notTheProfilesOwner
    case entitlementRequired(String)
}
