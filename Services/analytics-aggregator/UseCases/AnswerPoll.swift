/// The weather app's poll (N3): 1 to 10 answers, each to a question of the poll and once per request; each
/// question is answered once per user (the store's rule, all or nothing). The answers count in the results everyone
/// reads, so an account not trusted with that yet (`AuthenticatedUser.trusted`: a new install account) answers none.
package struct AnswerPoll: Sendable {
    package let polls: any PollAnswers

    package init(polls: any PollAnswers) {
        self.polls = polls
    }

    package func run(user: String, trusted: Bool, answers: [(question: String, answer: Bool)]) async throws {
        guard trusted else { throw SurveyRefusal.accountNotTrusted }
        guard (1...10).contains(answers.count) else { throw SurveyRefusal.answerCount }
        var unknown: [String: String] = [:], twice: [String: String] = [:]
        var seen: Set<String> = []
        for (index, answer) in answers.enumerated() {
            if PollQuestions.find(answer.question) == nil {
                unknown["answers[\(index)].questionId"] = "is not a question of the poll"
            } else if !seen.insert(answer.question).inserted {
                twice["answers[\(index)].questionId"] = "is answered twice"
            }
        }
        guard unknown.isEmpty else { throw SurveyRefusal.unknownQuestions(unknown) }
        guard twice.isEmpty else { throw SurveyRefusal.answeredTwice(twice) }
        try await polls.answer(user: user, answers: answers)
    }
}
