import Foundation

/// Changes a partner's profile (B1). An admin changes any field, approval and fee status included (the fee then
/// an override, marked as the admin's); a partner changes its own profile's fields, never its approval or its fee.
package struct EditPartner: Sendable {
    package enum Editor: Sendable {
        case admin, partner
    }

    package let profiles: any PartnerProfiles

    package init(profiles: any PartnerProfiles) {
        self.profiles = profiles
    }

    package func callAsFunction(_ id: UUID, _ changes: ProfileChanges, by editor: Editor) async throws -> Partner {
        var changes = changes
        if editor == .partner {
            changes.approved = nil
            changes.feeStatus = nil
        }
        guard let partner = try await profiles.update(id, changes) else { throw PartnerRefusal.partnerNotFound }
        return partner
    }
}
