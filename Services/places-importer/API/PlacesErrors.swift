import Shared

/// The places rules' refusals as HTTP: the one place they become HTTP errors.
enum PlacesErrors {
    static func answer(for refusal: PlacesRefusal) -> APIError {
        switch refusal {
        case .tooManyRatings(let rated, let retryAfter):
            APIError.tooManyRequests(
                code: "too_many_ratings", message: "this account has rated \(rated) places in the last 24 hours, the most it may",
                retryAfterSeconds: retryAfter)
        case .tooManyPlaces(let added, let retryAfter):
            APIError.tooManyRequests(
                code: "too_many_places", message: "this account has added \(added) places in the last 24 hours, the most it may",
                retryAfterSeconds: retryAfter)
        }
    }
}
