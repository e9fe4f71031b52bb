import PlatformCore

/// The account checks routes make before acting for a caller (U5, U6), over what auth's events said about the
/// account (`AccountStates`) rather than the token alone.
package struct CheckAccount: Sendable {
    package let states: any AccountStates

    package init(states: any AccountStates) {
        self.states = states
    }

    /// A partner's own operations: refused once the account is banned or no longer a partner.
    package func activePartner(_ caller: AuthenticatedUser) async throws {
        try await states.state(of: AccountKey.of(caller.id)).checkActsAsPartner()
    }

    /// A paid feature (a reading): the caller's account key when it may use `entitlement`; none needed is always allowed.
    package func purchaser(_ user: AuthenticatedUser, of entitlement: String?) async throws -> String {
        let account = AccountKey.of(user.id)
        guard let entitlement else { return account }
        try await states.state(of: account).checkMayUse(entitlement, claimed: user.has(entitlement: entitlement))
        return account
    }

    /// Whether a caller reads partners' contact details (U6): a signed-in user, not banned, holding the
    /// entitlement; the account's state is read only for such a caller.
    package func seesContacts(_ caller: AuthenticatedUser?) async throws -> Bool {
        guard let caller, caller.role == .user else { return false }
        let entitlement = ContactDisclosure.entitlement
        let state = try await states.state(of: AccountKey.of(caller.id))
        return (try? state.checkMayUse(entitlement, claimed: caller.has(entitlement: entitlement))) != nil
    }
}
