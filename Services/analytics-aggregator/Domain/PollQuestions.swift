/// The weather app's poll, as the seed states it (story 16): yes/no questions, answered once per user,
/// results in percent, and the message shown after answering. The seed speaks of three questions but lists
/// two; these are the two it lists.
package enum PollQuestions {
    package struct Question: Sendable {
        package let id: String
        package let text: String

        package init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    package static let all = [
        Question(id: "benefit", text: "Did you take a benefit from the application?"),
        Question(id: "awareness", text: "Have you increase your awareness of weather?"),
    ]

    package static let thankYou = "Thank you for your answer"

    package static func find(_ id: String) -> Question? { all.first { $0.id == id } }

    /// A share in percent with one decimal; 0 when nobody answered.
    package static func percent(_ part: Int, of total: Int) -> Double {
        guard total > 0 else { return 0 }
        return (Double(part) * 1000 / Double(total)).rounded() / 10
    }
}
