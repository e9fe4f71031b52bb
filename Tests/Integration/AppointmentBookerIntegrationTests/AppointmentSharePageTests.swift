import Foundation
import HTTPTypes
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

/// Share pages (B4): a reading's share link is absolute (`PUBLIC_BASE_URL`) and opens a public HTML page
/// with Open Graph and Twitter card tags, nothing personal, expiring after `SHARE_LINK_DAYS`.
@Suite("appointment-booker: share pages")
struct AppointmentSharePageTests {
    static let base = "https://horoscope.example.com/app"

    static func page(_ harness: BookingTestHarness, _ url: String, language: String? = nil) async throws -> HTMLPage {
        #expect(url.hasPrefix(base + "/"), "\(url)")
        return try await HTMLPage.fetch(url, base: base, from: harness.client, language: language)
    }

    @Test("B4: a reading's share link opens a public page with Open Graph and Twitter card tags; its image is served")
    func sharePage() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["PUBLIC_BASE_URL": Self.base + "/", "SHARE_LINK_DAYS": "7"]) { harness in
            let paid = try await harness.bookerToken(entitlements: ["tarot"])
            let (status, tarot) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["star", "tower", "world"]], bearer: paid)
            #expect(status == .created)
            let url = try #require(tarot["shareUrl"].string)
            #expect(url.hasPrefix("\(Self.base)/share/readings/"), "the trailing slash of the setting is dropped: \(url)")
            #expect(try #require(tarot["shareText"].string).hasSuffix(url))
            let page = try await Self.page(harness, url)
            #expect(page.status == .ok && page.contentType.hasPrefix("text/html"))
            #expect(page.meta("og:title") == tarot["title"].string && page.meta("twitter:card") == "summary_large_image")
            #expect(page.meta("og:url") == url && page.meta("og:description")?.isEmpty == false)
            let image = try #require(page.meta("og:image"))
            #expect(image == "\(Self.base)/share/card.png" && page.meta("twitter:image") == image)
            let card = try await Self.page(harness, image)
            #expect(card.status == .ok && card.contentType == "image/png")
            // In Thai when the link is opened in Thai.
            let thai = try await Self.page(harness, url, language: "th")
            #expect(thai.meta("og:title") == "ไพ่ทาโรต์: อดีต ปัจจุบัน อนาคต" && thai.html.contains(#"<html lang="th">"#))

            // The anonymous daily horoscope's link opens the same reading for anyone.
            let (_, daily) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-05")
            let dailyURL = try #require(daily["shareUrl"].string)
            #expect(dailyURL == "\(Self.base)/share/horoscope/leo?date=2027-01-05")
            let dailyPage = try await Self.page(harness, dailyURL)
            #expect(dailyPage.status == .ok && dailyPage.meta("og:title") == daily["title"].string)

            // Unknown ids and signs are a page too, not JSON.
            let unknown = try await Self.page(harness, "\(Self.base)/share/readings/AAAAAAAAAA")
            #expect(unknown.status == .notFound && unknown.contentType.hasPrefix("text/html"))
            #expect(try await Self.page(harness, "\(Self.base)/share/horoscope/dragon").status == .notFound)
            #expect(try await Self.page(harness, "\(Self.base)/share/readings/..%2F..%2Fetc").status != .ok)
        }
    }

    @Test(
        "B4: a phone-number or compatibility reading's page and JSON show no number nor name; an expired link is gone (410), for the JSON too (404)")
    func privacyAndExpiry() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["PUBLIC_BASE_URL": Self.base, "SHARE_LINK_DAYS": "7"]) { harness in
            let paid = try await harness.bookerToken(entitlements: ["phone_number", "compatibility"])
            let (_, phone) = try await harness.request(.post, "/v1/readings/phone-number", json: ["number": "081-234-5678"], bearer: paid)
            let url = try #require(phone["shareUrl"].string)
            let page = try await Self.page(harness, url)
            #expect(page.status == .ok)
            let digits = page.html.filter(\.isNumber)
            #expect(!digits.contains("2345678") && !page.html.contains("081"), "the number shows nowhere: \(page.html)")
            #expect(page.meta("og:title") == "A phone number reading")
            let shareId = try #require(url.split(separator: "/").last.map(String.init))
            // The app's JSON of the shared reading is masked by the same rule: no number, no digit pairs, no names.
            #expect(phone["parts"].count == 9, "the owner's own answer has the pairs")
            let (_, names) = try await harness.request(
                .post, "/v1/readings/compatibility", json: ["names": ["Somchai", "Malee"]], bearer: paid)
            #expect(names["title"].string == "Somchai + Malee", "the owner's own answer names them")
            for (path, title) in [
                ("/v1/shared/readings/\(shareId)", "A phone number reading"),
                ("/v1/shared/readings/\(try #require(names["shareUrl"].string?.split(separator: "/").last))", "A compatibility reading"),
            ] {
                let (status, shared) = try await harness.request(.get, path)
                #expect(status == .ok && shared["title"].string == title && shared["parts"].count == 0, "\(shared.raw ?? "")")
                // The link's random id is left out of what is searched.
                let link = try #require(shared["shareUrl"].string)
                let words = ["title", "text", "shareText"].compactMap { shared[$0].string?.replacingOccurrences(of: link, with: "") }
                #expect(words.count == 3)
                for word in words {
                    #expect(!word.contains("081") && !word.contains("2345678") && !word.contains("Somchai") && !word.contains("Malee"), "\(word)")
                }
                let sharedPage = try await Self.page(harness, link)
                #expect(sharedPage.meta("og:title") == title && sharedPage.meta("og:description") == shared["text"].string)
            }

            // Seven days later the page is gone, and so is the app's JSON of it.
            #expect(
                try await harness.count("UPDATE readings SET created_at = now() - interval '8 days' WHERE share_id = '\(shareId)' RETURNING 1") == 1)
            let expired = try await Self.page(harness, url)
            #expect(expired.status == .gone && expired.html.contains("expired"))
            let (status, _) = try await harness.request(.get, "/v1/shared/readings/\(shareId)")
            #expect(status == .notFound)
        }
    }
}
