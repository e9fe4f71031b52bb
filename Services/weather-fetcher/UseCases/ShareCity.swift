/// Shares a city (W10): its text in the kind asked for and, for every kind but the app's own link (which is the
/// text's link), a public page that shows it, kept under the id its URL names.
package struct ShareCity: Sendable {
    package let texts: CityShareTexts
    package let pages: any SharedTexts

    package init(texts: CityShareTexts, pages: any SharedTexts) {
        self.texts = texts
        self.pages = pages
    }

    package struct Shared: Sendable, Equatable {
        package let text: String
        /// The kept page's id; nil for the app's own link.
        package let pageId: String?

        package init(text: String, pageId: String?) {
            self.text = text
            self.pageId = pageId
        }
    }

    package func callAsFunction(_ kind: CityShareTexts.Kind, day: Int, city: City, requestedBy caller: String) async throws -> Shared {
        let text = try await texts.text(kind, day: day, city: city, requestedBy: caller)
        guard kind != .app else { return Shared(text: text, pageId: nil) }
        return Shared(text: text, pageId: try await pages.keep(cityId: city.id, kind: kind.rawValue, text: text))
    }
}
