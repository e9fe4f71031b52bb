import Foundation
import PlatformCore
import PlatformHTTP

/// The weather API generated from `openapi.yaml` (W1, W2, W7-W10): search, nearest, one city, share texts,
/// the map, and the user's recent and favourite cities. The city weather view is hand-registered
/// (`CityWeatherRoute`). Every operation runs behind an optional `AccessTokenMiddleware`; the `/v1/me`
/// operations require the caller from `RequestScope`.
struct WeatherAPI: APIProtocol {
    let cities: CityStore
    let reader: CityWeatherReader
    let userCities: UserCityStore
    let recentViews: RecentViewsRecorder
    let mark: MarkFavourite
    let unmark: UnmarkFavourite
    let warnings: CityWarningStore
    let store: WeatherStore
    let configuration: WeatherConfiguration
    /// City searches per client address and minute: anyone may search, and a search reads an index range.
    let searchQuota: WindowQuota
    let shareCity: ShareCity
    let sharePages: WeatherSharePages

    func searchCities(_ input: Operations.SearchCities.Input) async throws -> Operations.SearchCities.Output {
        if let wait = searchQuota.take(for: RequestScope.clientKey) {
            throw APIError.rateLimited("this address searched more than \(searchQuota.limit) times this minute", retryAfter: wait)
        }
        let page = input.query.page ?? 1
        let pageSize = input.query.pageSize ?? 50
        try Paging.check(page: page, pageSize: pageSize)
        let pattern: CitySearchPattern
        if let q = input.query.q {
            guard (1...100).contains(RequestText.length(q)) else { throw JSONBody.schemaViolation(["q": "must be 1 to 100 characters"]) }
            // Postgres refuses NUL characters; a name never holds one.
            guard let search = CitySearchPattern(query: RequestText.withoutNUL(q), contains: input.query.match == .contains) else {
                return .ok(.init(body: .json(.init(cities: [], page: page, pageSize: pageSize, hasMore: false))))
            }
            if search.isUnanchored, search.literalCount < CitySearchPattern.minimumUnanchoredLetters {
                throw APIError(
                    .unprocessableContent, code: "query_too_short",
                    message:
                        "a search that may match anywhere in a name (match=contains, or a leading *) needs at least \(CitySearchPattern.minimumUnanchoredLetters) letters"
                )
            }
            pattern = search
        } else {
            // No query: the whole catalogue, alphabetically, to choose from (W2).
            pattern = .everything
        }
        let found = try await cities.search(pattern, limit: pageSize + 1, offset: (page - 1) * pageSize)
        return .ok(
            .init(
                body: .json(
                    .init(cities: found.prefix(pageSize).map(CityDTO.init), page: page, pageSize: pageSize, hasMore: found.count > pageSize))))
    }

    func nearestCity(_ input: Operations.NearestCity.Input) async throws -> Operations.NearestCity.Output {
        let (latitude, longitude) = (input.query.lat, input.query.lon)
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw JSONBody.schemaViolation(["lat": "must be in -90...90", "lon": "must be in -180...180"])
        }
        guard let (city, distance) = try await cities.nearest(latitude: latitude, longitude: longitude) else {
            throw WeatherErrors.catalogueEmpty
        }
        return .ok(.init(body: .json(.init(city: CityDTO(city), distanceKm: Units.rounded(distance, places: 2)))))
    }

    func getCity(_ input: Operations.GetCity.Input) async throws -> Operations.GetCity.Output {
        .ok(.init(body: .json(CityDTO(try await CityWeatherRoute.requireCity(input.path.cityId, in: cities)))))
    }

    func shareCity(_ input: Operations.ShareCity.Input) async throws -> Operations.ShareCity.Output {
        let kind = input.query.kind ?? .home
        let dayIndex = input.query.day ?? 0
        guard (0...4).contains(dayIndex) else { throw JSONBody.schemaViolation(["day": "must be 0 to 4"]) }
        let city = try await CityWeatherRoute.requireCity(input.path.cityId, in: cities)
        let shared = try await shareCity(
            CityShareTexts.Kind(rawValue: kind.rawValue) ?? .home, day: dayIndex, city: city, requestedBy: RequestScope.clientKey)
        let url = shared.pageId.map(sharePages.url(id:))
        return .ok(.init(body: .json(.init(kind: .init(rawValue: kind.rawValue) ?? .home, text: shared.text, url: url))))
    }

    func getMap(_ input: Operations.GetMap.Input) async throws -> Operations.GetMap.Output {
        let query = input.query
        let box = BoundingBox(south: query.south ?? -90, west: query.west ?? -180, north: query.north ?? 90, east: query.east ?? 180)
        guard (-90...90).contains(box.south), (-90...90).contains(box.north), (-180...180).contains(box.west),
            (-180...180).contains(box.east)
        else { throw JSONBody.schemaViolation(["box": "latitudes must be in -90...90 and longitudes in -180...180"]) }
        guard box.south <= box.north else {
            throw APIError(.unprocessableContent, code: "invalid_box", message: "south must not be greater than north")
        }
        let maxCities = configuration.mapMaxCities
        let entries = try await store.map(box: box, limit: maxCities + 1)
        let mapped = entries.prefix(maxCities).map { entry in
            Components.Schemas.MapCity(
                id: entry.city.id, name: entry.city.name, countryCode: entry.city.countryCode, latitude: entry.city.latitude,
                longitude: entry.city.longitude, temperatureC: Units.rounded(entry.temperatureC),
                temperature: Units.celsius(entry.temperatureC), hasActiveWarning: entry.hasActiveWarning,
                updatedAt: entry.fetchedAt)
        }
        return .ok(.init(body: .json(.init(cities: mapped, truncated: entries.count > maxCities))))
    }

    func listRecentCities(_ input: Operations.ListRecentCities.Input) async throws -> Operations.ListRecentCities.Output {
        let user = try RequestScope.requireUser()
        // The user's own views noted on this instance and not yet written are part of the answer.
        try await recentViews.flush(userId: user.id)
        let recents = try await userCities.recents(userId: user.id).map {
            Components.Schemas.RecentCity(city: CityDTO($0.city), viewedAt: $0.viewedAt)
        }
        return .ok(.init(body: .json(.init(cities: recents))))
    }

    func listFavourites(_ input: Operations.ListFavourites.Input) async throws -> Operations.ListFavourites.Output {
        let user = try RequestScope.requireUser()
        return .ok(.init(body: .json(.init(cities: try await userCities.favourites(userId: user.id).map(CityDTO.init)))))
    }

    /// Idempotent: marking a favourite twice leaves one.
    func markFavourite(_ input: Operations.MarkFavourite.Input) async throws -> Operations.MarkFavourite.Output {
        let user = try RequestScope.requireUser()
        let cityId = input.path.cityId
        try CityWeatherRoute.checkCityId(cityId)
        try await mark(userId: user.id, cityId: cityId)
        return .ok(.init(body: .json(.init(cityId: cityId, isFavourite: true))))
    }

    func unmarkFavourite(_ input: Operations.UnmarkFavourite.Input) async throws -> Operations.UnmarkFavourite.Output {
        let user = try RequestScope.requireUser()
        let cityId = input.path.cityId
        try CityWeatherRoute.checkCityId(cityId)
        try await unmark(userId: user.id, cityId: cityId)
        return .ok(.init(body: .json(.init(cityId: cityId, isFavourite: false))))
    }
}
