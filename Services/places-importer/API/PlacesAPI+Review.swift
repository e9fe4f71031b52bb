import Foundation
import PlatformHTTP

/// The admins' review of member-added places (X3, P4): the queue, and a decision per place.
extension PlacesAPI {
    func listPlacesAwaitingReview(
        _ input: Operations.ListPlacesAwaitingReview.Input
    ) async throws -> Operations.ListPlacesAwaitingReview.Output {
        _ = try RequestScope.requireRole([.admin])
        let (page, size, offset) = try Paging.resolve(page: input.query.page, pageSize: input.query.pageSize)
        let found = try await reviews.awaiting(limit: size + 1, offset: offset)
        return .ok(
            .init(
                body: .json(
                    .init(
                        places: found.prefix(size).map(Components.Schemas.PlaceForReview.init), page: page, pageSize: size,
                        hasMore: found.count > size))))
    }

    func reviewPlace(_ input: Operations.ReviewPlace.Input) async throws -> Operations.ReviewPlace.Output {
        _ = try RequestScope.requireRole([.admin])
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let id = try Self.placeId(input.path.placeId)
        let decision: ReviewDecision = body.decision == .approve ? .approve : .reject
        guard let reviewed = try await review(id, decision) else { throw Self.placeNotFound(id) }
        return .ok(.init(body: .json(.init(reviewed))))
    }
}

extension Components.Schemas.PlaceForReview {
    init(_ reviewed: ReviewedPlace) {
        let place = reviewed.place
        self.init(
            id: place.id.uuidString.lowercased(), name: place.name, category: .init(rawValue: place.category.rawValue) ?? .other,
            latitude: place.latitude, longitude: place.longitude, address: place.address, openingHours: place.openingHours,
            phone: place.phone, website: place.website, addedBy: reviewed.addedBy, addedAt: reviewed.addedAt,
            review: .init(rawValue: place.review.rawValue) ?? .pending)
    }
}
