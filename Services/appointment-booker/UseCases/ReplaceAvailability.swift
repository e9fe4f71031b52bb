import Foundation
import PlatformCore

/// Replaces a partner's whole availability (B1, B3): an admin, or the partner itself while auth's events still say
/// it is an active partner. Existing bookings stay where they are.
package struct ReplaceAvailability: Sendable {
    package let profiles: any PartnerProfiles
    package let accounts: CheckAccount

    package init(profiles: any PartnerProfiles, accounts: CheckAccount) {
        self.profiles = profiles
        self.accounts = accounts
    }

    /// A caller's leave to replace one partner's availability: made only by `authorize`, so the replacement cannot
    /// run for a caller nobody asked about.
    package struct Leave: Sendable {
        fileprivate let partner: UUID
    }

    /// Asked before the request's body is read, as the access rules answer (403 before 400). Throws `AccountRefusal`.
    package func authorize(_ caller: AuthenticatedUser, for partner: UUID) async throws -> Leave {
        switch caller.role {
        case .admin:
            break
        case .partner where AccountKey.of(caller.id) == AccountKey.of(partner):
            try await accounts.activePartner(caller)
        default:
            throw AccountRefusal.notTheProfilesOwner
        }
        return Leave(partner: partner)
    }

    /// Throws `PartnerRefusal.partnerNotFound` when there is no such profile.
    package func callAsFunction(_ leave: Leave, with availability: Availability) async throws {
        guard try await profiles.setAvailability(leave.partner, availability) else { throw PartnerRefusal.partnerNotFound }
    }
}
