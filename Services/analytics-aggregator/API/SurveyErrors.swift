import PlatformHTTP

/// The hotel survey's and the poll's refusals as HTTP (N3, N4): the one place they become HTTP errors. A survey
/// answer is about a service or about the whole stay, and the words say which.
enum SurveyErrors {
    static func answer(for refusal: SurveyRefusal) -> APIError {
        switch refusal {
        case .notSurveyAccount:
            APIError(.forbidden, code: "not_a_survey_account", message: "the hotel survey is for survey accounts")
        case .malformedRatings:
            JSONBody.schemaViolation(["answers": "must be five of excellent, good, fair, poor"])
        case .alreadySubmitted(let part):
            APIError(
                .conflict, code: "already_submitted",
                message: part == .service ? "this service was rated already" : "the overall rating was given already")
        case .closed:
            APIError(.conflict, code: "survey_closed", message: "the overall rating was given: the survey is closed")
        case .noServiceRated:
            APIError(.unprocessableContent, code: "no_service_rated", message: "rate at least one service first")
        case .notSubmitted(let part):
            APIError(
                .notFound, code: "not_submitted",
                message: part == .service ? "this service was not rated yet" : "the overall rating was not given yet")
        case .notBelowGood(let part):
            APIError(
                .unprocessableContent, code: "not_below_good",
                message: part == .service ? "the service was rated 75 points or more" : "the rating was more than three stars")
        case .alreadyExplained:
            APIError(.conflict, code: "already_explained", message: "the reason was given already")
        case .blankWhy:
            APIError(.unprocessableContent, code: "blank_why", message: "say why in a few words")
        case .answerCount:
            JSONBody.schemaViolation(["answers": "must hold 1 to 10 answers"])
        case .unknownQuestions(let problems):
            APIError(.unprocessableContent, code: "unknown_question", message: JSONBody.validationError(problems).message, details: problems)
        case .answeredTwice(let problems):
            APIError(.unprocessableContent, code: "duplicate_question", message: JSONBody.validationError(problems).message, details: problems)
        case .alreadyAnswered(let questions):
            APIError(
                .conflict, code: "already_answered", message: "each question is answered once",
                details: ["questions": questions.sorted().joined(separator: ",")])
        case .accountNotTrusted: APIError.accountNotTrusted
        case .accountDeleted: APIError(.unauthorized, code: "invalid_token", message: "the account of this access token has been deleted")
        }
    }
}

extension SurveyRefusal: HTTPRefusal {
    package var answer: APIError { SurveyErrors.answer(for: self) }
}
