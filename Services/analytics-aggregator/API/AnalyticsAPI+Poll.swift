import Foundation
import PlatformHTTP

/// The weather app's poll (N3): questions, one answer per user and question, results in percent.
extension AnalyticsAPI {
    func getPoll(_ input: Operations.GetPoll.Input) async throws -> Operations.GetPoll.Output {
        var answers: [String: Bool] = [:]
        if let user = RequestScope.context?.user {
            answers = try await polls.answers(of: Self.accountKey(user))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        questions: PollQuestions.all.map { .init(id: $0.id, text: $0.text, answer: answers[$0.id]) },
                        thankYou: PollQuestions.thankYou))))
    }

    func answerPoll(_ input: Operations.AnswerPoll.Input) async throws -> Operations.AnswerPoll.Output {
        let user = try RequestScope.requireMember()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        try await AnswerPoll(polls: polls).run(
            user: Self.accountKey(user), trusted: user.trusted, answers: body.answers.map { ($0.questionId, $0.answer) })
        return .created(.init(body: .json(.init(message: PollQuestions.thankYou, answered: body.answers.map(\.questionId)))))
    }

    func getPollResults(_ input: Operations.GetPollResults.Input) async throws -> Operations.GetPollResults.Output {
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let stats = self.stats
        let questions = try await cache.poll.value(for: "poll|\(range?.cacheKey ?? "")") { try await stats.poll(range: range) }
        return .ok(.init(body: .json(.init(questions: questions))))
    }
}
