import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The poll's answers (N3): one per user and question, each published as `poll.answered` through the outbox
/// in the transaction that stores it. The results come from the aggregates, which count those events.
struct PollStore: Sendable {
    let client: PostgresClient
    let topic: String
    /// Whose pseudonym must not be made again (`AccountPseudonyms`).
    let erased: ErasedAccounts
    let logger: Logger

    func answer(user: String, answers: [(question: String, answer: Bool)]) async throws {
        try await client.inTransaction(logger: logger) { connection in
            // The kept topic names the account by its pseudonym only (U9); an account deleted meanwhile writes nothing.
            guard let pseudonym = try await AccountPseudonyms.ofLive(user, erased: erased, on: connection, logger: logger) else {
                throw SurveyRefusal.accountDeleted
            }
            let named = AccountPseudonym.prefix + pseudonym
            let questions = answers.map(\.question), values = answers.map(\.answer)
            let inserted = try await connection.tracedQuery(
                """
                INSERT INTO poll_answers (user_id, question, answer)
                SELECT \(user), q, a FROM unnest(\(questions)::text[], \(values)::boolean[]) AS t(q, a)
                ON CONFLICT DO NOTHING RETURNING question
                """, logger: logger
            ).decode(String.self).collectAll()
            guard inserted.count == answers.count else {
                let before = questions.filter { !inserted.contains($0) }
                // Rolls back the ones that were new: the request is all or nothing.
                throw SurveyRefusal.alreadyAnswered(before)
            }
            let envelopes = answers.map { answer in
                EventEnvelope(
                    type: EventTypes.pollAnswered, producer: ServiceIdentity.analyticsAggregator.name, key: named,
                    payload: PollAnswered(userId: named, questionId: answer.question, answer: answer.answer))
            }
            try await Outbox.enqueue(all: envelopes, toTopicNamed: topic, on: connection, logger: logger)
        }
    }

    /// The user's answers by question id.
    func answers(of user: String) async throws -> [String: Bool] {
        let rows = try await client.tracedQuery("SELECT question, answer FROM poll_answers WHERE user_id = \(user)", logger: logger)
        var answers: [String: Bool] = [:]
        for try await (question, answer) in rows.decode((String, Bool).self) { answers[question] = answer }
        return answers
    }
}
