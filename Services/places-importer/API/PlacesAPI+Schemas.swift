import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// The API's generated shapes made from the domain's, and the domain's from the API's with the rules the
/// generated layer does not check (ranges, lengths, patterns: 400; rules beyond the document: 422).
extension Components.Schemas.Place {
    init(_ place: Place, pin: String, distanceMetres: Double? = nil) {
        self.init(
            id: place.id.uuidString.lowercased(), name: place.name, category: .init(rawValue: place.category.rawValue) ?? .other,
            latitude: place.latitude, longitude: place.longitude, address: place.address, openingHours: place.openingHours,
            phone: place.phone, website: place.website, internetAccess: place.internetAccess, userAdded: place.addedBy != nil,
            review: place.review == .approved ? nil : .init(rawValue: place.review.rawValue),
            pin: Components.Schemas.Pin(rawValue: pin) ?? .red, distanceMetres: distanceMetres.map { ($0 * 10).rounded() / 10 })
    }
}

extension Components.Schemas.Aggregate {
    init(_ aggregate: PlaceRatingAggregate) {
        self.init(
            count: aggregate.count, averages: .init(additionalProperties: aggregate.averages),
            menuOptions: .init(additionalProperties: aggregate.menuOptions),
            businessTypes: .init(additionalProperties: aggregate.businessTypes))
    }
}

extension Components.Schemas.Rating {
    init(_ rating: Rating) {
        self.init(
            noise: rating.noise, outlets: rating.outlets, wifi: rating.wifi, cost: rating.cost, seating: rating.seating,
            menuOptions: rating.menuOptions.compactMap(MenuOptionsPayloadPayload.init(rawValue:)),
            businessType: BusinessTypePayload(rawValue: rating.businessType) ?? .other, notes: rating.notes)
    }
}

extension Components.Schemas.ImportArea {
    init(_ status: ImportAreaStatus) {
        let box = status.area.box
        self.init(
            id: status.area.id.uuidString.lowercased(), name: status.area.name, south: box.south, west: box.west, north: box.north,
            east: box.east, nextRunAt: status.nextRunAt, lastStartedAt: status.lastStartedAt, lastFinishedAt: status.lastFinishedAt,
            lastStatus: status.lastStatus.flatMap(LastStatusPayload.init(rawValue:)), placesOfWorship: status.area.placesOfWorship,
            lastError: status.lastError, created: status.created, changed: status.changed, unchanged: status.unchanged,
            tilesDone: status.tilesDone, tilesTotal: status.tilesTotal)
    }
}

extension Rating {
    /// The rating, or a 400 naming every value the document does not allow.
    init(validating input: Components.Schemas.Rating) throws {
        var problems: [String: String] = [:]
        let scores = [("noise", input.noise), ("outlets", input.outlets), ("wifi", input.wifi), ("cost", input.cost), ("seating", input.seating)]
        for (name, value) in scores where !(0...5).contains(value) {
            problems[name] = "must be an integer from 0 to 5"
        }
        let options = (input.menuOptions ?? []).map(\.rawValue)
        if Set(options).count != options.count { problems["menuOptions"] = "lists an option twice" }
        if RequestText.length(input.notes ?? "") > Rating.maxNotesLength {
            problems["notes"] = "must be at most \(Rating.maxNotesLength) characters"
        }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        self.init(
            noise: input.noise, outlets: input.outlets, wifi: input.wifi, cost: input.cost, seating: input.seating,
            menuOptions: options, businessType: input.businessType.rawValue, notes: RequestText.withoutNUL(input.notes ?? ""))
    }
}

/// What a new place must be beyond its JSON shape (P4).
enum NewPlaceRules {
    static let maxNameLength = 200
    static let maxAddressLength = 500

    /// The candidate to store (coordinates still zero when the address is to be looked up), or 400 for a
    /// value the document does not allow, or 422 for a location that is neither coordinates nor an address.
    static func candidate(from body: Components.Schemas.NewPlace) throws -> PlaceCandidate {
        var problems: [String: String] = [:]
        let name = RequestText.trimmed(body.name)
        if name.isEmpty {
            problems["name"] = "must not be blank"
        } else if RequestText.length(body.name) > maxNameLength {
            problems["name"] = "must be at most \(maxNameLength) characters"
        }
        let address = body.address.map(RequestText.trimmed)
        if let address, let given = body.address {
            if address.isEmpty {
                problems["address"] = "must not be blank"
            } else if RequestText.length(given) > maxAddressLength {
                problems["address"] = "must be at most \(maxAddressLength) characters"
            }
        }
        // What the user reviewed after the lookup (P4): kept as given, within the document's bounds.
        var contact: [String: String] = [:]
        for (field, value, limit) in [("openingHours", body.openingHours, 500), ("phone", body.phone, 100), ("website", body.website, 2_000)] {
            guard let value else { continue }
            if value.isEmpty || RequestText.length(value) > limit {
                problems[field] = "must be 1 to \(limit) characters"
            } else if field == "website", !value.hasPrefix("http://"), !value.hasPrefix("https://") {
                problems[field] = "must start with http:// or https://"
            } else if !RequestText.withoutNUL(value).isEmpty {
                // Postgres refuses NUL characters; a value of nothing else is no value.
                contact[field] = RequestText.withoutNUL(value)
            }
        }
        if let latitude = body.latitude, !(-90...90).contains(latitude) { problems["latitude"] = "must be between -90 and 90" }
        if let longitude = body.longitude, !(-180...180).contains(longitude) { problems["longitude"] = "must be between -180 and 180" }
        if let rating = body.rating {
            do { _ = try Rating(validating: rating) } catch let error as APIError {
                for (field, message) in error.details ?? [:] { problems["rating.\(field)"] = message }
            }
        }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        switch (body.latitude, body.longitude, address) {
        case (.some, .some, _), (nil, nil, .some):
            break
        case (nil, nil, nil):
            throw JSONBody.validationError(["address": "is required when latitude and longitude are not given"])
        default:
            let missing = body.latitude == nil ? "latitude" : "longitude"
            throw JSONBody.validationError([missing: "must be given together with the other coordinate"])
        }
        return PlaceCandidate(
            provider: "user", providerId: "", name: name, category: body.category.map(PlaceCategory.init) ?? .other,
            latitude: body.latitude ?? 0, longitude: body.longitude ?? 0, address: address, openingHours: contact["openingHours"],
            phone: contact["phone"], website: contact["website"], internetAccess: nil)
    }
}

// The document's closed sets and the domain's, mapped case by case: a value added to one and not the other
// fails to compile here (requests) or fails `PlacesContractTests` (answers).
extension PinColour {
    init(_ colour: Components.Schemas.PinColour) {
        switch colour {
        case .green: self = .green
        case .purple: self = .purple
        case .orange: self = .orange
        case .yellow: self = .yellow
        case .black: self = .black
        }
    }
}

extension PlaceCategory {
    init(_ category: Components.Schemas.Category) {
        switch category {
        case .coworking: self = .coworking
        case .cafe: self = .cafe
        case .library: self = .library
        case .bar: self = .bar
        case .other: self = .other
        case .worship: self = .worship
        }
    }
}
