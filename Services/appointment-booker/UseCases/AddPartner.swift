import PlatformCore

/// Adds a partner's profile (B1), an admin's act: only for an account auth's events made a partner, and once per
/// account. The role is judged as read here and read again in the insert's transaction, so a role changed in
/// between is not given a profile.
package struct AddPartner: Sendable {
    package let profiles: any PartnerProfiles
    package let accounts: any AccountStates

    package init(profiles: any PartnerProfiles, accounts: any AccountStates) {
        self.profiles = profiles
        self.accounts = accounts
    }

    package func callAsFunction(_ partner: NewPartner) async throws -> Partner {
        guard try await accounts.state(of: AccountKey.of(partner.id)).role == .partner else { throw PartnerRefusal.notAPartner }
        switch try await profiles.create(partner) {
        case .created(let created): return created
        case .notAPartner: throw PartnerRefusal.notAPartner
        case .exists: throw PartnerRefusal.profileExists
        }
    }
}
