import Foundation
import Hummingbird
import Shared

/// The map (W9): every city with data inside a box, its temperature and whether a warning is active,
/// read fresh on every request.
struct MapRoutes {
    let store: WeatherStore
    let maxCities: Int

    func add(to router: Router<PlatformRequestContext>) {
        router.get("v1/map", use: map)
    }

    @Sendable func map(_ request: Request, context: PlatformRequestContext) async throws -> MapDTO {
        let query = request.uri.queryParameters
        let box = BoundingBox(
            south: try QueryParameter.double(query, "south", default: -90, range: -90...90),
            west: try QueryParameter.double(query, "west", default: -180, range: -180...180),
            north: try QueryParameter.double(query, "north", default: 90, range: -90...90),
            east: try QueryParameter.double(query, "east", default: 180, range: -180...180))
        guard box.south <= box.north else {
            throw APIError.badRequest("invalid_box", "south must not be greater than north")
        }
        let entries = try await store.map(box: box, limit: maxCities + 1)
        return MapDTO(
            cities: entries.prefix(maxCities).map { entry in
                MapCityDTO(
                    id: entry.city.id, name: entry.city.name, countryCode: entry.city.countryCode, latitude: entry.city.latitude,
                    longitude: entry.city.longitude, temperatureC: Units.rounded(entry.temperatureC),
                    temperature: CityWeatherPresenter.celsius(entry.temperatureC), hasActiveWarning: entry.hasActiveWarning,
                    updatedAt: entry.fetchedAt)
            },
            truncated: entries.count > maxCities)
    }
}
