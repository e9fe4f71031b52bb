/// Why marking or unmarking a favourite is refused (W8): an outcome of the domain, not an HTTP answer. The API maps
/// it to its error (`WeatherErrors.answer(for:)`).
package enum FavouriteRefusal: Error, Equatable {
    /// The catalogue has no city with this id.
    case cityNotFound(Int)
    /// The user has this many favourites already (`FAVOURITES_PER_ACCOUNT`): each is refreshed from the provider and
    /// pushed about every day, so one account cannot make that work without end.
    case tooManyFavourites(Int)
}

/// What marking a favourite did.
package enum FavouriteAdding: Sendable, Equatable {
    case added
    case alreadyFavourite
    /// Not added: the user has the limit's number of favourites.
    case full
}
