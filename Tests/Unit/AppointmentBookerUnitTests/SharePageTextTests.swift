import Foundation
import PlatformCore
import PlatformHTTP
import Testing

@testable import AppointmentBooker

/// What a reading's share page shows of its text, and the setting that names the pages' address (B4).
@Suite("appointment-booker: share page texts")
struct SharePageTextTests {
    @Test("B4: share pages mask long digit runs and escape HTML; the setting must be an http(s) URL")
    func maskingAndSetting() throws {
        #expect(ShareMasking.maskingNumbers("call 081-234-5678 now") == "call •••-•••-••78 now")
        #expect(ShareMasking.maskingNumbers("on 2027-01-05, card 12") == "on 2027-01-05, card 12", "dates and small numbers stay")
        #expect(SharePageHTML.escape(#"<b>"Tom" & 'Ann'</b>"#) == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Ann&#39;&lt;/b&gt;")
        #expect(try EnvironmentReader.publicBaseURL("https://a.example/x/") == "https://a.example/x")
        for bad in ["ftp://a.example", "a.example", "https://a.example/?q=1", "https://"] {
            #expect(throws: ConfigError.self, "\(bad)") { try EnvironmentReader.publicBaseURL(bad) }
        }
    }

    @Test("B4: a shared reading's JSON is masked by the page's rule: no phone number, digit pair or name; other texts pass")
    func sharedJSONMasked() throws {
        let service = try ReadingServiceTests.service()
        let day = ReadingServiceTests.day
        let number = try #require(PhoneNumberRule.number("081-234-5678"))
        let phone = service.engine.phoneNumber(number, on: day)
        let names = service.engine.compatibility(names: "Somchai", "Malee", on: day)
        let tarot = ReadingServiceTests.reading(.good)
        for language in Language.allCases {
            for reading in [phone, names] {
                let stored = StoredReading(id: UUID(), shareId: "AbCdEfGh12", reading: reading, createdAt: Date())
                let shared = Components.Schemas.Reading(shared: stored, language: language, readings: service)
                let words = [shared.title, shared.text, shared.shareText] + shared.parts.flatMap { [$0.label, $0.text] }
                #expect(shared.parts.isEmpty && shared.title == ShareMasking.kindTitle(reading.kind).text(language))
                for word in words {
                    #expect(!word.contains("Somchai") && !word.contains("Malee") && !word.contains("2345678") && !word.contains("081"), "\(word)")
                }
                #expect(shared.verdict.rawValue == reading.verdict.rawValue && shared.scores.love == reading.scores.love, "verdict and scores stay")
                // The page shows what the JSON shows.
                let page = SharePage.html(reading, language: language, pageURL: shared.shareUrl, imageURL: "https://example.com/card.png")
                #expect(page.contains(SharePageHTML.escape(shared.title)) && page.contains(SharePageHTML.escape(shared.text)))
            }
        }
        var numbered = tarot
        numbered.text = .init(en: "call 0812345678", th: "โทร 0812345678")
        numbered.parts = [.init(label: .init(en: "0812345678", th: "0812345678"), text: .init(en: "x", th: "x"))]
        let stored = StoredReading(id: UUID(), shareId: "AbCdEfGh12", reading: numbered, createdAt: Date())
        let shared = Components.Schemas.Reading(shared: stored, language: .english, readings: service)
        #expect(shared.text == "call ••••••••78" && shared.parts.first?.label == "••••••••78" && shared.title == tarot.title.en)
    }
}
