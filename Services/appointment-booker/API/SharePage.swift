import Foundation
import PlatformEvents
import PlatformHTTP

/// The public page a shared reading's link opens (B4): the reading for a person, and Open Graph and Twitter card
/// tags for the preview a chat or social app draws from the link. Nothing personal: it shows the reading as
/// `ShareMasking` shares it, as the app's JSON of a shared reading does.
enum SharePage {
    /// The page of `reading`, at `pageURL`, its preview image at `imageURL`.
    static func html(_ reading: Reading, language: Language, pageURL: String, imageURL: String) -> String {
        let shared = ShareMasking.shared(reading)
        let title = shared.title.text(language)
        let scores = ShareMasking.scoreLine(shared.scores).text(language)
        let verdict = shared.verdict.word.text(language)
        let text = shared.text.text(language)
        let preview = SharePageHTML.Preview(
            siteName: "Horoscope", title: title, description: text, pageURL: pageURL, imageURL: imageURL, language: language.rawValue)
        // A personal reading's text is its verdict and scores, shown above already.
        let personal = ShareMasking.isPersonal(reading.kind)
        return SharePageHTML.page(preview, paragraphs: ["\(shared.date) · \(verdict)", scores] + (personal ? [] : [text]))
    }
}
