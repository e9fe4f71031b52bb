import Foundation

/// Replaces a partner's whole availability (B1, B3); who may (the partner itself or an admin) is the API's access
/// rule. Existing bookings stay where they are.
struct ReplaceAvailability: Sendable {
    let profiles: any PartnerProfiles

    func callAsFunction(of partner: UUID, with availability: Availability) async throws {
        guard try await profiles.setAvailability(partner, availability) else { throw PartnerRefusal.partnerNotFound }
    }
}
