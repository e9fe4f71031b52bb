import PlatformCore

/// Who reads a fortune teller's contact details (U6: "only purchased users can do this activity"): the partner
/// itself, admins, and callers holding `contact_fortune_teller`; everyone else sees the profile without them, with
/// the name of the feature that shows them.
package enum ContactDisclosure {
    package static let entitlement = BookSlot.entitlement

    /// `entitled`: the caller holds the feature as the account's events and token say (`AccountState.allows`).
    package static func shows(contactOf partner: Partner, to caller: AuthenticatedUser?, entitled: Bool) -> Bool {
        guard let caller else { return false }
        if caller.role == .admin { return true }
        if caller.role == .partner && AccountKey.of(caller.id) == AccountKey.of(partner.id) { return true }
        return entitled
    }
}
