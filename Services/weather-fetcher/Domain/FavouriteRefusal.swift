/// Why marking or unmarking a favourite is refused (W8): an outcome of the domain, not an HTTP answer. The API maps
/// it to its error (`WeatherErrors.answer(for:)`).
enum FavouriteRefusal: Error, Equatable {
    /// The catalogue has no city with this id.
    case cityNotFound(Int)
}
