import PlatformHTTP

/// The hotel survey's and the poll's refusals as HTTP (N3, N4): the one place the stores' outcomes become HTTP
/// errors. A survey answer is about a service or about the whole stay, and the words say which.
enum SurveyErrors {
    enum Part {
        case service, overall
    }

    static let notSurveyAccount = APIError(.forbidden, code: "not_a_survey_account", message: "the hotel survey is for survey accounts")

    /// Runs `body`, answering the survey store's refusals of a rating of `part`.
    static func answering<T>(_ part: Part, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch is SurveyStore.AlreadySubmitted {
            throw APIError(
                .conflict, code: "already_submitted",
                message: part == .service ? "this service was rated already" : "the overall rating was given already")
        } catch is SurveyStore.SurveyClosed {
            throw APIError(.conflict, code: "survey_closed", message: "the overall rating was given: the survey is closed")
        } catch is SurveyStore.NoServiceRated {
            throw APIError(.unprocessableContent, code: "no_service_rated", message: "rate at least one service first")
        }
    }

    /// The refusal of a reason given for a rating of `part`; nil when it was stored.
    static func answer(for outcome: SurveyStore.ExplainOutcome, _ part: Part) -> APIError? {
        switch outcome {
        case .stored:
            nil
        case .notSubmitted:
            APIError(
                .notFound, code: "not_submitted",
                message: part == .service ? "this service was not rated yet" : "the overall rating was not given yet")
        case .notBelowGood:
            APIError(
                .unprocessableContent, code: "not_below_good",
                message: part == .service ? "the service was rated 75 points or more" : "the rating was more than three stars")
        case .alreadyExplained:
            APIError(.conflict, code: "already_explained", message: "the reason was given already")
        }
    }

    /// Questions of the poll answered before: each is answered once.
    static func answer(for refusal: PollStore.AlreadyAnswered) -> APIError {
        APIError(
            .conflict, code: "already_answered", message: "each question is answered once",
            details: ["questions": refusal.questions.sorted().joined(separator: ",")])
    }
}
