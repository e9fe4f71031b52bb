import Foundation
import Synchronization

@testable import PlacesImporter

/// The catalogue, users' marks and the admins' review kept in memory, with the rules Postgres keeps for
/// `PlaceStore`, `UserPlaceStore` and `PlaceReviewStore`: one colour per user and place, one save per user and place,
/// a pin computed like `UserPlaceStore.pinExpression`, and a review decided only while pending and added by a
/// member (the decision's `UPDATE … WHERE review = 'pending'`).
final class MemoryPlaces: PlaceCatalogue, PlaceMarks, PlaceReviewRepository {
    private let rows = Mutex<[UUID: (place: Place, addedAt: Date)]>([:])
    private let colours = Mutex<[String: String]>([:])
    private let saves = Mutex<Set<String>>([])
    /// Runs before each review decision is written, with the place's id: what another admin does in between.
    let beforeDecision = Mutex<(@Sendable (UUID) -> Void)?>(nil)

    @discardableResult
    func insert(review: PlaceReview, addedBy: String?, addedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> Place {
        let place = Place(
            id: UUID(), name: "Café \(rows.withLock { $0.count })", category: .cafe, latitude: 52.5, longitude: 13.4, addedBy: addedBy,
            review: review)
        rows.withLock { $0[place.id] = (place, addedAt) }
        return place
    }

    func setReview(_ id: UUID, _ review: PlaceReview) { rows.withLock { $0[id]?.place.review = review } }

    var savedCount: Int { saves.withLock { $0.count } }
    var colourCount: Int { colours.withLock { $0.count } }

    private static func key(_ placeId: UUID, _ user: String) -> String { "\(user)\u{1F}\(placeId)" }

    // MARK: PlaceCatalogue

    func find(_ id: UUID) async throws -> Place? { rows.withLock { $0[id]?.place } }

    // MARK: PlaceMarks

    func setPin(placeId: UUID, user: String, colour: PinColour?) async throws {
        colours.withLock { $0[Self.key(placeId, user)] = colour?.rawValue }
    }

    func setSaved(placeId: UUID, user: String, saved: Bool) async throws {
        _ = saves.withLock { saved ? $0.insert(Self.key(placeId, user)).inserted : $0.remove(Self.key(placeId, user)) != nil }
    }

    func pin(placeId: UUID, user: String) async throws -> String {
        var pins = UserPins()
        if let colour = colours.withLock({ $0[Self.key(placeId, user)] }) { pins.colours[placeId] = colour }
        if saves.withLock({ $0.contains(Self.key(placeId, user)) }) { pins.touched.insert(placeId) }
        return pins.pin(placeId: placeId, addedBy: try await find(placeId)?.addedBy, user: user)
    }

    // MARK: PlaceReviewRepository

    func awaiting(limit: Int, offset: Int) async throws -> [ReviewedPlace] {
        rows.withLock { rows in
            rows.values.filter { $0.place.review == .pending }.sorted { ($0.addedAt, $0.place.id.uuidString) < ($1.addedAt, $1.place.id.uuidString) }
                .dropFirst(offset).prefix(limit).map {
                    ReviewedPlace(place: $0.place, addedBy: $0.place.addedBy ?? "", addedAt: $0.addedAt)
                }
        }
    }

    func standing(of placeId: UUID) async throws -> ReviewStanding? {
        rows.withLock { $0[placeId].map { ReviewStanding(review: $0.place.review, addedBy: $0.place.addedBy) } }
    }

    func decide(_ placeId: UUID, _ decision: ReviewDecision) async throws -> ReviewedPlace? {
        beforeDecision.withLock { $0 }?(placeId)
        return rows.withLock { rows in
            guard var row = rows[placeId], row.place.review == .pending, let addedBy = row.place.addedBy else { return nil }
            row.place.review = decision.outcome
            rows[placeId] = row
            return ReviewedPlace(place: row.place, addedBy: addedBy, addedAt: row.addedAt)
        }
    }
}

/// Counts calls of a hook a use case runs after it wrote.
final class Calls: Sendable {
    private let made = Mutex<[String]>([])

    var all: [String] { made.withLock { $0 } }

    func note(_ call: String = "") { made.withLock { $0.append(call) } }
}
