import PlatformCore

/// The hotel survey (N4) for auth's survey accounts: a service rated once with five ratings, a reason asked for
/// below 75 points, an overall rating that closes the survey, a reason asked for at three stars or fewer.
package struct TakeSurvey: Sendable {
    package let surveys: any SurveySubmissions

    package init(surveys: any SurveySubmissions) {
        self.surveys = surveys
    }

    /// `user` when it is one of auth's survey accounts (known from its `user.registered` events).
    package func taker(_ user: String) async throws -> String {
        guard try await surveys.isSurveyAccount(user) else { throw SurveyRefusal.notSurveyAccount }
        return user
    }

    /// The service's points and whether they ask why.
    package func submitService(user: String, service: String, ratings: [String]) async throws -> (points: Int, asksWhy: Bool) {
        guard let points = HotelSurvey.score(ratings) else { throw SurveyRefusal.malformedRatings }
        try await surveys.submitService(user: user, service: service, ratings: ratings, points: points)
        return (points, HotelSurvey.isBelowGood(points: points))
    }

    package func submitOverall(user: String, stars: Int?) async throws -> SurveyOverall {
        try await surveys.submitOverall(user: user, stars: stars)
    }

    package func explainService(user: String, service: String, why: String) async throws {
        try Self.check(try await surveys.explainService(user: user, service: service, why: try Self.reason(why)), .service)
    }

    package func explainOverall(user: String, why: String) async throws {
        try Self.check(try await surveys.explainOverall(user: user, why: try Self.reason(why)), .overall)
    }

    /// The reason as stored: trimmed, and not blank.
    package static func reason(_ text: String) throws -> String {
        let trimmed = RequestText.trimmed(text)
        guard !trimmed.isEmpty else { throw SurveyRefusal.blankWhy }
        return trimmed
    }

    private static func check(_ outcome: SurveyExplainOutcome, _ part: SurveyRefusal.Part) throws {
        switch outcome {
        case .stored: return
        case .notSubmitted: throw SurveyRefusal.notSubmitted(part)
        case .notBelowGood: throw SurveyRefusal.notBelowGood(part)
        case .alreadyExplained: throw SurveyRefusal.alreadyExplained
        }
    }
}
