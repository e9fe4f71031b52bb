/// Why the poll or the hotel survey refused a submission (N3, N4).
package enum SurveyRefusal: Error, Equatable {
    /// A survey answer is about one service or about the whole stay.
    package enum Part: Sendable, Equatable {
        case service, overall
    }

    case notSurveyAccount
    /// Not five ratings of excellent, good, fair or poor.
    case malformedRatings
    case alreadySubmitted(Part)
    /// The overall rating was given: the survey takes nothing more.
    case closed
    case noServiceRated
    case notSubmitted(Part)
    case notBelowGood(Part)
    case alreadyExplained
    case blankWhy
    /// Not 1 to 10 answers.
    case answerCount
    /// Answer index and why, for questions the poll does not have.
    case unknownQuestions([String: String])
    case answeredTwice([String: String])
    /// The questions answered before; nothing was stored.
    case alreadyAnswered([String])
    /// The account is not trusted yet with what others read (a new install account).
    case accountNotTrusted
    /// The account was deleted while the request was on its way: nothing of it may be written again.
    case accountDeleted
}
