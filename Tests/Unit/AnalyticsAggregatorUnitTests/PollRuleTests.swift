import Testing

@testable import AnalyticsAggregator

/// The weather app's poll as the seed states it (N3): its questions and how results are put in percent.
@Suite("analytics-aggregator: the poll's questions and percentages")
struct PollRuleTests {
    @Test("N3: the seed's two questions, found by id; an unknown id is none")
    func questions() {
        #expect(PollQuestions.all.map(\.id) == ["benefit", "awareness"])
        #expect(PollQuestions.find("awareness")?.text == "Have you increase your awareness of weather?")
        #expect(PollQuestions.find("Benefit") == nil && PollQuestions.find("") == nil)
    }

    @Test("N3: results in percent with one decimal, rounded half up; nobody answered is 0, not a division by zero")
    func percent() {
        #expect(PollQuestions.percent(1, of: 3) == 33.3)
        #expect(PollQuestions.percent(2, of: 3) == 66.7)
        #expect(PollQuestions.percent(1, of: 8) == 12.5)
        #expect(PollQuestions.percent(1, of: 16) == 6.3)
        #expect(PollQuestions.percent(5, of: 5) == 100)
        #expect(PollQuestions.percent(0, of: 0) == 0)
    }
}
