import Foundation
import Hummingbird
import Shared

/// The signed-in user's cities: recents (W7) and favourites (W8). Every route needs an access token.
struct UserCityRoutes {
    let cities: CityStore
    let userCities: UserCityStore

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let group = router.group("v1/me").add(middleware: AccessTokenMiddleware(verifier: verifier))
        group.get("recent-cities", use: recents)
        group.get("favourites", use: favourites)
        group.put("favourites/:cityId", use: mark)
        group.delete("favourites/:cityId", use: unmark)
    }

    @Sendable func recents(_ request: Request, context: PlatformRequestContext) async throws -> RecentCitiesDTO {
        let user = try context.requireUser()
        return RecentCitiesDTO(
            cities: try await userCities.recents(userId: user.id).map { RecentCityDTO(city: CityDTO($0.city), viewedAt: $0.viewedAt) })
    }

    @Sendable func favourites(_ request: Request, context: PlatformRequestContext) async throws -> FavouritesDTO {
        let user = try context.requireUser()
        return FavouritesDTO(cities: try await userCities.favourites(userId: user.id).map(CityDTO.init))
    }

    /// Idempotent: marking a favourite twice leaves one.
    @Sendable func mark(_ request: Request, context: PlatformRequestContext) async throws -> FavouriteChangeDTO {
        let user = try context.requireUser()
        let city = try await CityRoutes.requireCity(context, in: cities)
        _ = try await userCities.addFavourite(userId: user.id, city: city)
        return FavouriteChangeDTO(cityId: city.id, isFavourite: true)
    }

    @Sendable func unmark(_ request: Request, context: PlatformRequestContext) async throws -> FavouriteChangeDTO {
        let user = try context.requireUser()
        let city = try await CityRoutes.requireCity(context, in: cities)
        try await userCities.removeFavourite(userId: user.id, city: city)
        return FavouriteChangeDTO(cityId: city.id, isFavourite: false)
    }
}
