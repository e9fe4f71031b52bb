import PlatformHTTP

/// Trend refusals as HTTP (N5): the one place they become HTTP errors.
enum TrendErrors {
    static func answer(for refusal: TrendRefusal) -> APIError {
        switch refusal {
        case .notPerApp(let measure):
            APIError(
                .unprocessableContent, code: "not_per_app", message: "\(measure.rawValue) are not counted per app",
                details: ["app": "not for this metric"])
        }
    }
}

extension TrendRefusal: HTTPRefusal {
    package var answer: APIError { TrendErrors.answer(for: self) }
}
