import PlatformHTTP

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
        case .addressNotFound: APIError(.unprocessableContent, code: "address_not_found", message: "no place is known at that address")
        case .lookupUnavailable:
            APIError(
                .serviceUnavailable, code: "address_lookup_unavailable",
                message: "the address lookup did not answer; give coordinates or try again", headers: [.retryAfter: "30"])
        case .lookupsUsedUp(let limit, let retryAfter):
            APIError.rateLimited("this account used its \(limit) address look-ups this hour", retryAfter: retryAfter)
        case .lookupBusy:
            APIError(
                .tooManyRequests, code: "lookup_busy", message: "too many address look-ups are waiting; try again in a moment",
                headers: [.retryAfter: "5"])
        case .radiusTooLarge(let maxMetres):
            APIError(.unprocessableContent, code: "radius_too_large", message: "this service answers radii up to \(maxMetres) m")
        case .invalidBox:
            APIError(.unprocessableContent, code: "invalid_box", message: "south must be below north and west left of east")
        case .boxTooLarge(let maxDegrees):
            APIError(.unprocessableContent, code: "box_too_large", message: "a box may span at most \(maxDegrees)° each way")
        case .importAreaBox(let problem): JSONBody.validationError(["box": problem])
        case .placeNotFound(let id): PlacesAPI.placeNotFound(id)
        case .accountNotTrusted: APIError.accountNotTrusted
        case .alreadyReviewed(let review, let decision):
            APIError(
                .conflict, code: "already_reviewed",
                message: review == .approved && decision == .approve
                    ? "the place is already listed for everyone" : "the place is \(review.rawValue); only a pending place can be decided")
        }
    }
}

extension PlacesRefusal: HTTPRefusal {
    package var answer: APIError { PlacesErrors.answer(for: self) }
}
