import Foundation

/// Adds a user's place (P4) within the account's daily limit (X3); it waits for an admin's review.
struct AddPlace: Sendable {
    let places: any UserPlaceRepository
    let limits: AccountDayLimits

    func callAsFunction(_ candidate: PlaceCandidate, user: String, rating: Rating?, colour: PinColour?) async throws -> UUID {
        let limits = limits
        return try await places.add(candidate, user: user, rating: rating, colour: colour) { recent in
            if let refusal = limits.refusalToAdd(recent) { throw refusal }
        }
    }
}
