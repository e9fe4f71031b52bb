import Foundation

/// A signed-in view of a city (W7, W8): the city is noted for the user's recents, written later with other views
/// (`RecentViewsRecorder`), and the answer says whether it is a favourite, from the user's cached favourites
/// (`FavouriteIdsCache`). Most views cost no database round trip at all.
///
/// Generic over the store rather than holding `any FavouriteCities`: it runs on the city weather view, the hottest
/// route, where the specialised call adds no indirection over calling the store directly.
package struct RecordCityView<Favourites: FavouriteCities>: Sendable {
    package let favourites: Favourites
    package let known: FavouriteIdsCache
    package let recents: RecentViewsRecorder

    package init(favourites: Favourites, known: FavouriteIdsCache, recents: RecentViewsRecorder) {
        self.favourites = favourites
        self.known = known
        self.recents = recents
    }

    /// Whether the city is one of the user's favourites.
    package func callAsFunction(userId: String, cityId: Int, at viewedAt: Date) async throws -> Bool {
        await recents.note(userId: userId, cityId: cityId, at: viewedAt)
        return try await known.isFavourite(cityId, userId: userId, in: favourites)
    }
}
