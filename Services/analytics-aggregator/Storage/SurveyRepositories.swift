import Foundation

/// The poll's answers (N3), one per user and question.
protocol PollAnswers: Sendable {
    /// Stores every answer or none: throws `SurveyRefusal.alreadyAnswered` naming the questions answered before.
    func answer(user: String, answers: [(question: String, answer: Bool)]) async throws
    /// The user's answers by question id.
    func answers(of user: String) async throws -> [String: Bool]
}

/// The hotel survey's submissions (N4). A submission the survey's state refuses (rated already, closed, nothing
/// rated before the overall rating) throws the `SurveyRefusal` that says so.
protocol SurveySubmissions: Sendable {
    func isSurveyAccount(_ user: String) async throws -> Bool
    func status(of user: String) async throws -> SurveyStatus
    func submitService(user: String, service: String, ratings: [String], points: Int) async throws
    /// `stars` nil: one per 100 points of the rated services.
    func submitOverall(user: String, stars: Int?) async throws -> SurveyOverall
    func explainService(user: String, service: String, why: String) async throws -> SurveyExplainOutcome
    func explainOverall(user: String, why: String) async throws -> SurveyExplainOutcome
}

/// What a guest has submitted: each rated service's points and the overall rating.
struct SurveyStatus: Sendable {
    var services: [String: Int] = [:]
    var overall: SurveyOverall?
}

/// The overall rating as given, with its coupon when one was issued.
struct SurveyOverall: Sendable, Equatable {
    var stars: Int
    var points: Int
    var coupon: String?
    var couponStatus: SurveyCoupons.Status
}

/// What became of a reason given for a rating.
enum SurveyExplainOutcome: Sendable, Equatable {
    case stored, notSubmitted, notBelowGood, alreadyExplained
}

extension PollStore: PollAnswers {}
extension SurveyStore: SurveySubmissions {}
