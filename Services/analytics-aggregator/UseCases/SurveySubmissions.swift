import Foundation

/// The hotel survey's submissions (N4). A submission the survey's state refuses (rated already, closed, nothing
/// rated before the overall rating) throws the `SurveyRefusal` that says so.
package protocol SurveySubmissions: Sendable {
    func isSurveyAccount(_ user: String) async throws -> Bool
    func status(of user: String) async throws -> SurveyStatus
    func submitService(user: String, service: String, ratings: [String], points: Int) async throws
    /// `stars` nil: one per 100 points of the rated services.
    func submitOverall(user: String, stars: Int?) async throws -> SurveyOverall
    func explainService(user: String, service: String, why: String) async throws -> SurveyExplainOutcome
    func explainOverall(user: String, why: String) async throws -> SurveyExplainOutcome
}
