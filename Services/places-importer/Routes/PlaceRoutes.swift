import Foundation
import Hummingbird
import Shared

/// The places API for signed-in users (P2-P4): nearby places with pins, details with aggregates, rating,
/// pins and saves, and adding a place. Every route needs an access token.
struct PlaceRoutes {
    let places: PlaceStore
    let users: UserPlaceStore
    let nearbyPlaces: NearbyPlaces
    let nominatim: NominatimClient
    let configuration: PlacesConfiguration

    static let maxPageSize = 100
    static let maxNameLength = 200

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let group = router.group("v1/places").add(middleware: AccessTokenMiddleware(verifier: verifier))
        group.get(use: nearby)
        group.post(use: addPlace)
        group.get(":placeId", use: details)
        group.put(":placeId/rating", use: rate)
        group.put(":placeId/pin", use: setPin)
        group.delete(":placeId/pin", use: clearPin)
        group.put(":placeId/saved", use: save)
        group.delete(":placeId/saved", use: unsave)
    }

    /// `?lat=&lon=&radius=` (metres, nearest first) or `?south=&west=&north=&east=` (by name); paginated.
    @Sendable func nearby(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let user = try context.requireUser().id
        let query = request.uri.queryParameters
        let page = try QueryParameter.integer(query, "page", default: 1, range: 1...10_000)
        let pageSize = try QueryParameter.integer(query, "pageSize", default: 50, range: 1...Self.maxPageSize)
        let area: NearbyPlaces.Area
        if query["lat"] != nil || query["lon"] != nil {
            let latitude = try QueryParameter.double(query, "lat", range: -90...90)
            let longitude = try QueryParameter.double(query, "lon", range: -180...180)
            let radius = try QueryParameter.integer(query, "radius", default: 1_000, range: 1...configuration.maxRadiusMetres)
            area = .circle(latitude: latitude, longitude: longitude, radiusMetres: Double(radius))
        } else if query["south"] != nil || query["west"] != nil || query["north"] != nil || query["east"] != nil {
            let bounds = try QueryParameter.box(query)
            let box = GeoBox(south: bounds.south, west: bounds.west, north: bounds.north, east: bounds.east)
            guard box.north - box.south <= configuration.maxBoxDegrees, box.east - box.west <= configuration.maxBoxDegrees else {
                throw APIError.badRequest("box_too_large", "a box may span at most \(configuration.maxBoxDegrees)° each way")
            }
            area = .box(box)
        } else {
            throw APIError.badRequest("missing_area", "give lat, lon and radius, or south, west, north and east")
        }
        let body = try await nearbyPlaces.page(area, user: user, page: page, pageSize: pageSize)
        return JSONResponse.ok(body)
    }

    @Sendable func details(_ request: Request, context: PlatformRequestContext) async throws -> PlaceDetailDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        return PlaceDetailDTO(
            place: PlaceDTO(place, pin: try await users.pin(placeId: place.id, user: user)),
            ratings: AggregateDTO(try await users.aggregate(placeId: place.id)),
            myRating: try await users.rating(placeId: place.id, user: user))
    }

    @Sendable func rate(_ request: Request, context: PlatformRequestContext) async throws -> RatedDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        let input = try await JSONBody.decode(RatingInput.self, request, context)
        let rating = try Self.validate(input)
        let aggregate = try await users.rate(placeId: place.id, user: user, rating: rating)
        nearbyPlaces.userChanged(user)
        return RatedDTO(placeId: place.id, rating: rating, ratings: AggregateDTO(aggregate))
    }

    @Sendable func setPin(_ request: Request, context: PlatformRequestContext) async throws -> PinDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        let body = try await JSONBody.decode(PinRequest.self, request, context)
        let colour = try Self.colour(body.colour, required: true)
        try await users.setPin(placeId: place.id, user: user, colour: colour)
        nearbyPlaces.userChanged(user)
        return PinDTO(placeId: place.id, pin: try await users.pin(placeId: place.id, user: user))
    }

    @Sendable func clearPin(_ request: Request, context: PlatformRequestContext) async throws -> PinDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        try await users.setPin(placeId: place.id, user: user, colour: nil)
        nearbyPlaces.userChanged(user)
        return PinDTO(placeId: place.id, pin: try await users.pin(placeId: place.id, user: user))
    }

    @Sendable func save(_ request: Request, context: PlatformRequestContext) async throws -> PinDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        try await users.setSaved(placeId: place.id, user: user, saved: true)
        nearbyPlaces.userChanged(user)
        return PinDTO(placeId: place.id, pin: try await users.pin(placeId: place.id, user: user))
    }

    @Sendable func unsave(_ request: Request, context: PlatformRequestContext) async throws -> PinDTO {
        let user = try context.requireUser().id
        let place = try await requirePlace(context)
        try await users.setSaved(placeId: place.id, user: user, saved: false)
        nearbyPlaces.userChanged(user)
        return PinDTO(placeId: place.id, pin: try await users.pin(placeId: place.id, user: user))
    }

    /// Adds a place (P4). Everything is validated before anything is written: a request with any bad field
    /// stores nothing. Without coordinates, Nominatim looks the address up.
    @Sendable func addPlace(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let user = try context.requireUser().id
        let body = try await JSONBody.decode(NewPlaceRequest.self, request, context)
        var problems: [String: String] = [:]
        let name = body.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if name.isEmpty { problems["name"] = "is required" } else if name.count > Self.maxNameLength {
            problems["name"] = "must be at most \(Self.maxNameLength) characters"
        }
        let address = body.address?.trimmingCharacters(in: .whitespacesAndNewlines)
        switch (body.latitude, body.longitude) {
        case (let latitude?, let longitude?):
            if !(-90...90).contains(latitude) { problems["latitude"] = "must be between -90 and 90" }
            if !(-180...180).contains(longitude) { problems["longitude"] = "must be between -180 and 180" }
        case (nil, nil):
            if address?.isEmpty ?? true { problems["address"] = "is required when latitude and longitude are not given" }
        default:
            problems[body.latitude == nil ? "latitude" : "longitude"] = "must be given together with the other coordinate"
        }
        let category = body.category.map { PlaceCategory(rawValue: $0) } ?? .other
        if category == nil {
            problems["category"] = "must be one of \(PlaceCategory.allCases.map(\.rawValue).joined(separator: ", "))"
        }
        var rating: Rating?
        if let input = body.rating {
            switch input.validated() {
            case .success(let valid): rating = valid
            case .failure(let errors): for (field, message) in errors.fields { problems["rating.\(field)"] = message }
            }
        }
        var colour: PinColour?
        if let text = body.pinColour {
            colour = PinColour(rawValue: text)
            if colour == nil { problems["pinColour"] = "must be one of \(PinColour.allCases.map(\.rawValue).joined(separator: ", "))" }
        }
        guard problems.isEmpty else { throw JSONBody.validationError(problems) }
        var candidate = PlaceCandidate(
            provider: "user", providerId: "", name: name, category: category ?? .other, latitude: body.latitude ?? 0,
            longitude: body.longitude ?? 0, address: address?.isEmpty == true ? nil : address, openingHours: nil, phone: nil,
            website: nil, internetAccess: nil)
        if body.latitude == nil, let address {
            let match: NominatimClient.Match?
            do {
                match = try await nominatim.lookup(address)
            } catch {
                throw APIError(
                    .serviceUnavailable, code: "address_lookup_unavailable",
                    message: "the address lookup did not answer; give coordinates or try again", headers: [.retryAfter: "30"])
            }
            guard let match else {
                throw APIError(.unprocessableContent, code: "address_not_found", message: "no place is known at that address")
            }
            candidate.latitude = match.latitude
            candidate.longitude = match.longitude
            candidate.address = match.displayName
            candidate.openingHours = match.openingHours
            candidate.phone = match.phone
            candidate.website = match.website
        }
        let placeId = try await users.add(candidate, user: user, rating: rating, colour: colour)
        nearbyPlaces.userChanged(user)
        try await nearbyPlaces.placesChanged()
        let place = try await places.find(placeId)!
        let dto = PlaceDTO(place, pin: try await users.pin(placeId: placeId, user: user))
        return try JSONResponse.created(dto, location: "/v1/places/\(placeId)")
    }

    // MARK: Helpers

    static func validate(_ input: RatingInput) throws -> Rating {
        switch input.validated() {
        case .success(let rating): return rating
        case .failure(let errors): throw JSONBody.validationError(errors.fields)
        }
    }

    static func colour(_ text: String?, required: Bool) throws -> PinColour? {
        guard let text else {
            if required { throw JSONBody.validationError(["colour": "is required"]) }
            return nil
        }
        guard let colour = PinColour(rawValue: text) else {
            throw JSONBody.validationError(["colour": "must be one of \(PinColour.allCases.map(\.rawValue).joined(separator: ", "))"])
        }
        return colour
    }

    private func requirePlace(_ context: PlatformRequestContext) async throws -> Place {
        guard let text = context.parameters.get("placeId"), let id = UUID(uuidString: text) else {
            throw APIError.badRequest("invalid_place_id", "the place id must be a UUID")
        }
        guard let place = try await places.find(id) else {
            throw APIError(.notFound, code: "place_not_found", message: "no place with id \(id)")
        }
        return place
    }
}
