import Foundation

/// A signed-in view of a city (W7): the city joins the user's recents, unless it is already their newest recent
/// view from the last minute (a client reloading one city should not cost a commit per request). Answers whether
/// the city is a favourite, read in the same round trip as the recents.
///
/// Generic over the store rather than holding `any RecentCityViews`: it runs on the city weather view, the hottest
/// route, where the specialised call adds no indirection, allocation or await over calling the store directly.
struct RecordCityView<Views: RecentCityViews>: Sendable {
    let views: Views

    /// Whether the city is one of the user's favourites.
    func callAsFunction(userId: String, cityId: Int) async throws -> Bool {
        let state = try await views.viewState(userId: userId, cityId: cityId)
        if !state.isNewestRecentView { try await views.recordView(userId: userId, cityId: cityId) }
        return state.isFavourite
    }
}
