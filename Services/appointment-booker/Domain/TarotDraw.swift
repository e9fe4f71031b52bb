/// The three cards a tarot reading is drawn from (B4): each a card of the deck, all three different.
package struct TarotDraw: Sendable {
    package let cards: [ReadingContent.Card]

    package enum Refusal: Error, Equatable {
        case notThree
        /// The position in the request of a card the deck does not have.
        case unknownCard(index: Int, id: String)
        case notDistinct
    }

    package init(ids: [String], deck: (String) -> ReadingContent.Card?) throws(Refusal) {
        guard ids.count == 3 else { throw .notThree }
        var cards: [ReadingContent.Card] = []
        for (index, id) in ids.enumerated() {
            guard let card = deck(id) else { throw .unknownCard(index: index, id: id) }
            cards.append(card)
        }
        guard Set(cards.map(\.id)).count == 3 else { throw .notDistinct }
        self.cards = cards
    }

    /// The reading's inputs as kept (`ReadingStore.keep`): the cards' ids in the order picked, as the order sets
    /// past, present and future.
    package var inputs: String { cards.map(\.id).joined(separator: ",") }
}
