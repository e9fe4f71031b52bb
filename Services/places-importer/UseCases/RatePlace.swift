import Foundation

/// Rates a place for a user (P3) within the account's daily limit (X3).
struct RatePlace: Sendable {
    let places: any UserPlaceRepository
    let limits: AccountDayLimits

    func callAsFunction(_ placeId: UUID, user: String, rating: Rating) async throws -> UserPlaceStore.Aggregate {
        let limits = limits
        return try await places.rate(placeId: placeId, user: user, rating: rating) { recent in
            if let refusal = limits.refusalToRate(recent) { throw refusal }
        }
    }
}
