import Foundation
import PlatformCore

/// Replaces a partner's whole availability (B1, B3): an admin, or the partner itself while auth's events still say
/// it is an active partner. Existing bookings stay where they are.
struct ReplaceAvailability: Sendable {
    let profiles: any PartnerProfiles
    let accounts: CheckAccount

    /// A caller's leave to replace one partner's availability: made only by `authorize`, so the replacement cannot
    /// run for a caller nobody asked about.
    struct Leave: Sendable {
        fileprivate let partner: UUID
    }

    /// Asked before the request's body is read, as the access rules answer (403 before 400). Throws `AccountRefusal`.
    func authorize(_ caller: AuthenticatedUser, for partner: UUID) async throws -> Leave {
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
    func callAsFunction(_ leave: Leave, with availability: Availability) async throws {
        guard try await profiles.setAvailability(leave.partner, availability) else { throw PartnerRefusal.partnerNotFound }
    }
}
