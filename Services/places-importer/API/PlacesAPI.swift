import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// The places API generated from `openapi.yaml` (P1-P4): one place, adding places, ratings, pins, saves and
/// the admin's import areas. The nearby lists are hand-registered (`NearbyRoutes`). Every operation runs
/// behind `AccessTokenMiddleware`; the caller comes from `RequestScope`.
struct PlacesAPI: APIProtocol {
    let places: PlaceStore
    let users: UserPlaceStore
    let rate: RatePlace
    let add: AddPlace
    let mark: MarkPlace
    let areas: any ImportAreaRegistry
    let saveArea: SaveImportArea
    let runArea: RunImportArea
    let reviews: any PlaceReviewRepository
    let review: ReviewPlace
    let nearbyPlaces: NearbyPlaces
    let lookups: AddressLookups

    func getPlace(_ input: Operations.GetPlace.Input) async throws -> Operations.GetPlace.Output {
        let user = try RequestScope.requireMember().id
        let place = try await requirePlace(input.path.placeId, visibleTo: user)
        let detail = Components.Schemas.PlaceDetail(
            place: .init(place, pin: try await users.pin(placeId: place.id, user: user)),
            ratings: .init(try await users.aggregate(placeId: place.id)),
            myRating: try await users.rating(placeId: place.id, user: user).map(Components.Schemas.Rating.init))
        return .ok(.init(body: .json(detail)))
    }

    func ratePlace(_ input: Operations.RatePlace.Input) async throws -> Operations.RatePlace.Output {
        let caller = try RequestScope.requireMember()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let rating = try Rating(validating: body)
        let placeId = try Self.placeId(input.path.placeId)
        let aggregate = try await rate(placeId, by: caller, rating: rating)
        nearbyPlaces.userChanged(caller.id)
        return .ok(.init(body: .json(.init(placeId: placeId.uuidString.lowercased(), rating: .init(rating), ratings: .init(aggregate)))))
    }

    func setPin(_ input: Operations.SetPin.Input) async throws -> Operations.SetPin.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        return .ok(try await changePin(input.path.placeId, .colour(PinColour(body.colour))))
    }

    func clearPin(_ input: Operations.ClearPin.Input) async throws -> Operations.ClearPin.Output {
        .ok(try await changePin(input.path.placeId, .colour(nil)))
    }

    func savePlace(_ input: Operations.SavePlace.Input) async throws -> Operations.SavePlace.Output {
        .ok(try await changePin(input.path.placeId, .saved(true)))
    }

    func unsavePlace(_ input: Operations.UnsavePlace.Input) async throws -> Operations.UnsavePlace.Output {
        .ok(try await changePin(input.path.placeId, .saved(false)))
    }

    /// Adds a place (P4). Everything is validated before anything is written: a request with any bad field
    /// stores nothing. Without coordinates, Nominatim looks the address up.
    func addPlace(_ input: Operations.AddPlace.Input) async throws -> Operations.AddPlace.Output {
        let caller = try RequestScope.requireMember()
        let user = caller.id
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let candidate = try NewPlaceRules.candidate(from: body)
        let rating = try body.rating.map(Rating.init(validating:))
        let colour = body.pinColour.map(PinColour.init)
        let placeId = try await add(candidate, by: caller, rating: rating, colour: colour, locatingAddress: body.latitude == nil)
        nearbyPlaces.userChanged(user)
        try await nearbyPlaces.placesChanged()
        guard let place = try await places.find(placeId) else {
            throw APIError(.internalServerError, code: "internal_error", message: "the new place could not be read back")
        }
        let created = Components.Schemas.Place(place, pin: try await users.pin(placeId: placeId, user: user))
        return .created(.init(headers: .init(location: "/v1/places/\(placeId)"), body: .json(created)))
    }

    /// P4's first step: what a lookup knows about an address or coordinates, stored nowhere.
    func lookupPlace(_ input: Operations.LookupPlace.Input) async throws -> Operations.LookupPlace.Output {
        let user = try RequestScope.requireMember()
        let query = input.query
        let match: NominatimClient.Match?
        switch (query.address.map(RequestText.trimmed), query.latitude, query.longitude) {
        case (let address?, nil, nil) where !address.isEmpty:
            guard RequestText.length(address) <= 300 else { throw JSONBody.schemaViolation(["address": "is at most 300 characters"]) }
            match = try await lookups.lookup(address, for: user)
        case (nil, let latitude?, let longitude?):
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw JSONBody.schemaViolation(["latitude": "must be in -90...90", "longitude": "must be in -180...180"])
            }
            match = try await lookups.reverse(latitude: latitude, longitude: longitude, for: user)
        default:
            throw JSONBody.validationError(["address": "give an address, or latitude and longitude"])
        }
        guard let match else { throw APIError(.notFound, code: "address_not_found", message: "nothing is known there") }
        return .ok(
            .init(
                body: .json(
                    .init(
                        name: match.name, address: match.displayName, latitude: match.latitude, longitude: match.longitude,
                        openingHours: match.openingHours, phone: match.phone, website: match.website))))
    }

    func listImportAreas(_ input: Operations.ListImportAreas.Input) async throws -> Operations.ListImportAreas.Output {
        _ = try RequestScope.requireRole([.admin])
        return .ok(try await areaList())
    }

    func saveImportArea(_ input: Operations.SaveImportArea.Input) async throws -> Operations.SaveImportArea.Output {
        _ = try RequestScope.requireRole([.admin])
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let name = RequestText.trimmed(body.name)
        let box = GeoBox(south: body.south, west: body.west, north: body.north, east: body.east)
        var outside = BoxRanges.problems(south: box.south, west: box.west, north: box.north, east: box.east)
        if name.isEmpty {
            outside["name"] = "must not be blank"
        } else if RequestText.length(body.name) > 100 {
            outside["name"] = "must be at most 100 characters"
        }
        guard outside.isEmpty else { throw JSONBody.schemaViolation(outside) }
        try await saveArea(name: name, box: box, placesOfWorship: body.placesOfWorship ?? false)
        return .ok(try await areaList())
    }

    func runImportArea(_ input: Operations.RunImportArea.Input) async throws -> Operations.RunImportArea.Output {
        _ = try RequestScope.requireRole([.admin])
        guard let id = UUID(uuidString: input.path.areaId) else {
            throw JSONBody.schemaViolation(["areaId": "must be a UUID"])
        }
        guard try await runArea(id) else { throw APIError(.notFound, code: "area_not_found", message: "no import area \(id)") }
        return .ok(try await areaList())
    }

    // MARK: Helpers

    private func areaList() async throws -> Components.Responses.ImportAreas {
        .init(body: .json(.init(areas: try await areas.list().map(Components.Schemas.ImportArea.init))))
    }

    /// Marks the place for the caller and answers the place's pin as it is now.
    private func changePin(_ placeId: String, _ change: MarkPlace.Mark) async throws -> Components.Responses.Pin {
        let user = try RequestScope.requireMember().id
        let id = try Self.placeId(placeId)
        guard let pin = try await mark(id, user: user, mark: change) else { throw Self.placeNotFound(id) }
        return .init(body: .json(.init(placeId: id.uuidString.lowercased(), pin: Components.Schemas.Pin(rawValue: pin) ?? .red)))
    }

    /// The place, if `viewer` may see it (`Place.isVisible(to:)`).
    private func requirePlace(_ text: String, visibleTo viewer: String) async throws -> Place {
        let id = try Self.placeId(text)
        guard let place = try await places.find(id), place.isVisible(to: viewer) else { throw Self.placeNotFound(id) }
        return place
    }

    static func placeId(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw JSONBody.schemaViolation(["placeId": "must be a UUID"]) }
        return id
    }

    static func placeNotFound(_ id: UUID) -> APIError {
        APIError(.notFound, code: "place_not_found", message: "no place with id \(id)")
    }
}
