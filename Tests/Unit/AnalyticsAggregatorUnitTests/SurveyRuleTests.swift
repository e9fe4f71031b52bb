import Foundation
import Synchronization
import Testing

@testable import AnalyticsAggregator

/// The poll's and the hotel survey's rules (N3, N4) over a memory store: the answer checks, the survey account,
/// the ratings' score, the reasons asked for. The integration tests keep the transactions (a rating racing the
/// overall one) and the events.
@Suite("analytics: poll and hotel survey rules")
struct SurveyRuleTests {
    final class MemorySurvey: PollAnswers, SurveySubmissions {
        private struct State {
            var polls: [String: [String: Bool]] = [:]
            var accounts: Set<String> = []
            var status: [String: SurveyStatus] = [:]
            var reasons: Set<String> = []
        }

        private let state = Mutex(State())

        func addAccount(_ user: String) { state.withLock { _ = $0.accounts.insert(user) } }

        func answer(user: String, answers: [(question: String, answer: Bool)]) async throws {
            try state.withLock { state in
                let before = answers.map(\.question).filter { state.polls[user]?[$0] != nil }
                guard before.isEmpty else { throw SurveyRefusal.alreadyAnswered(before) }
                for answer in answers { state.polls[user, default: [:]][answer.question] = answer.answer }
            }
        }

        func answers(of user: String) async throws -> [String: Bool] { state.withLock { $0.polls[user] ?? [:] } }

        func isSurveyAccount(_ user: String) async throws -> Bool { state.withLock { $0.accounts.contains(user) } }

        func status(of user: String) async throws -> SurveyStatus { state.withLock { $0.status[user] ?? SurveyStatus() } }

        func submitService(user: String, service: String, ratings: [String], points: Int) async throws {
            try state.withLock { state in
                guard state.status[user]?.overall == nil else { throw SurveyRefusal.closed }
                guard state.status[user]?.services[service] == nil else { throw SurveyRefusal.alreadySubmitted(.service) }
                state.status[user, default: SurveyStatus()].services[service] = points
            }
        }

        func submitOverall(user: String, stars: Int?) async throws -> SurveyOverall {
            try state.withLock { state in
                let services = state.status[user]?.services ?? [:]
                guard !services.isEmpty else { throw SurveyRefusal.noServiceRated }
                guard state.status[user]?.overall == nil else { throw SurveyRefusal.alreadySubmitted(.overall) }
                let points = services.values.reduce(0, +)
                let overall = SurveyOverall(
                    stars: stars ?? HotelSurvey.suggestedStars(totalPoints: points), points: points, coupon: "C", couponStatus: .issued)
                state.status[user]?.overall = overall
                return overall
            }
        }

        func explainService(user: String, service: String, why: String) async throws -> SurveyExplainOutcome {
            state.withLock { state in
                guard let points = state.status[user]?.services[service] else { return .notSubmitted }
                guard HotelSurvey.isBelowGood(points: points) else { return .notBelowGood }
                return state.reasons.insert("\(user)|\(service)").inserted ? .stored : .alreadyExplained
            }
        }

        func explainOverall(user: String, why: String) async throws -> SurveyExplainOutcome {
            state.withLock { state in
                guard let stars = state.status[user]?.overall?.stars else { return .notSubmitted }
                guard HotelSurvey.asksWhy(stars: stars) else { return .notBelowGood }
                return state.reasons.insert("\(user)|overall").inserted ? .stored : .alreadyExplained
            }
        }
    }

    func refusal(_ body: () async throws -> Void) async -> SurveyRefusal? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SurveyRefusal
        }
    }

    @Test("U8, N3: an account not trusted yet (a new install) answers nothing: its answers would count in the results")
    func untrustedPollAnswerRefused() async throws {
        let store = MemorySurvey()
        let first = try #require(PollQuestions.all.first).id
        await #expect(throws: SurveyRefusal.accountNotTrusted) {
            try await AnswerPoll(polls: store).run(user: "u", trusted: false, answers: [(first, true)])
        }
        #expect(try await store.answers(of: "u").isEmpty, "nothing stored")
        #expect(SurveyErrors.answer(for: .accountNotTrusted).status == .forbidden)
    }

    @Test("N3: 1 to 10 answers, each to a question of the poll and once; a question answered before refuses all")
    func pollAnswers() async throws {
        let store = MemorySurvey()
        let poll = AnswerPoll(polls: store)
        let first = try #require(PollQuestions.all.first).id, second = try #require(PollQuestions.all.dropFirst().first).id
        await #expect(throws: SurveyRefusal.answerCount) { try await poll.run(user: "u", trusted: true, answers: []) }
        await #expect(throws: SurveyRefusal.answerCount) {
            try await poll.run(user: "u", trusted: true, answers: Array(repeating: (first, true), count: 11))
        }
        #expect(
            await refusal { try await poll.run(user: "u", trusted: true, answers: [(first, true), ("nope", false)]) }
                == .unknownQuestions(["answers[1].questionId": "is not a question of the poll"]))
        #expect(
            await refusal { try await poll.run(user: "u", trusted: true, answers: [(first, true), (first, false)]) }
                == .answeredTwice(["answers[1].questionId": "is answered twice"]))
        try await poll.run(user: "u", trusted: true, answers: [(first, true)])
        #expect(
            await refusal { try await poll.run(user: "u", trusted: true, answers: [(second, false), (first, false)]) } == .alreadyAnswered([first]))
        #expect(try await store.answers(of: "u") == [first: true], "the refused request stored nothing")
    }

    @Test("N4: only survey accounts take it; five ratings score a service; a reason only below good, once, not blank")
    func surveyRules() async throws {
        let store = MemorySurvey()
        let survey = TakeSurvey(surveys: store)
        await #expect(throws: SurveyRefusal.notSurveyAccount) { _ = try await survey.taker("stranger") }
        store.addAccount("guest")
        let guest = try await survey.taker("guest")
        await #expect(throws: SurveyRefusal.malformedRatings) { _ = try await survey.submitService(user: guest, service: "rooms", ratings: ["good"]) }
        #expect(
            await refusal { _ = try await survey.submitService(user: guest, service: "rooms", ratings: Array(repeating: "great", count: 5)) }
                == .malformedRatings)
        await #expect(throws: SurveyRefusal.noServiceRated) { _ = try await survey.submitOverall(user: guest, stars: nil) }
        let rooms = try await survey.submitService(user: guest, service: "rooms", ratings: ["excellent", "good", "good", "fair", "poor"])
        #expect(rooms.points == 45 && rooms.asksWhy)
        let gym = try await survey.submitService(user: guest, service: "gym", ratings: ["excellent", "excellent", "excellent", "good", "fair"])
        #expect(gym.points == 75 && !gym.asksWhy, "75 points is good")
        await #expect(throws: SurveyRefusal.blankWhy) { try await survey.explainService(user: guest, service: "rooms", why: " \n ") }
        await #expect(throws: SurveyRefusal.notBelowGood(.service)) { try await survey.explainService(user: guest, service: "gym", why: "crowded") }
        await #expect(throws: SurveyRefusal.notSubmitted(.service)) { try await survey.explainService(user: guest, service: "dining", why: "cold") }
        try await survey.explainService(user: guest, service: "rooms", why: "noisy")
        await #expect(throws: SurveyRefusal.alreadyExplained) { try await survey.explainService(user: guest, service: "rooms", why: "noisy") }
        await #expect(throws: SurveyRefusal.notSubmitted(.overall)) { try await survey.explainOverall(user: guest, why: "meh") }
        let overall = try await survey.submitOverall(user: guest, stars: nil)
        #expect(overall.stars == 1 && overall.points == 120)
        try await survey.explainOverall(user: guest, why: "meh")
        #expect(
            await refusal { _ = try await survey.submitService(user: guest, service: "dining", ratings: Array(repeating: "good", count: 5)) }
                == .closed)
    }
}
