import Foundation

/// The poll's answers (N3), one per user and question.
package protocol PollAnswers: Sendable {
    /// Stores every answer or none: throws `SurveyRefusal.alreadyAnswered` naming the questions answered before.
    func answer(user: String, answers: [(question: String, answer: Bool)]) async throws
    /// The user's answers by question id.
    func answers(of user: String) async throws -> [String: Bool]
}
