import Foundation
import Testing

@testable import AppointmentBooker

/// An admin's changes to the prayer book (B4): `AddPrayer`, `EditPrayer` and `RemovePrayer` over a memory book.
@Suite("appointment-booker: prayer book (use cases)")
struct PrayerBookTests {
    static let title = Localized(en: "Morning chant", th: "บทสวดเช้า")
    static let text = Localized(en: "Namo tassa", th: "นะโม ตัสสะ")

    @Test("B4: an added prayer is kept with both languages and its media URL")
    func addKeepsPrayer() async throws {
        let book = MemoryPrayerBook()
        let added = try await AddPrayer(prayers: book)(title: Self.title, text: Self.text, mediaURL: "https://example.com/chant.mp3")
        #expect(added.title == Self.title && added.text == Self.text && added.mediaURL == "https://example.com/chant.mp3")
        #expect(book.all == [added])
    }

    @Test("B4: an edit replaces the fields it names and keeps the others")
    func editKeepsFieldsLeftOut() async throws {
        let book = MemoryPrayerBook()
        let added = try await AddPrayer(prayers: book)(title: Self.title, text: Self.text, mediaURL: "https://example.com/a.mp3")
        let edited = try await EditPrayer(prayers: book)(added.id, with: PrayerEdit(titleTh: "บทสวดใหม่", textEn: "New words"))
        #expect(edited.title == Localized(en: Self.title.en, th: "บทสวดใหม่"))
        #expect(edited.text == Localized(en: "New words", th: Self.text.th))
        #expect(edited.mediaURL == "https://example.com/a.mp3")
        #expect(book.all == [edited])
    }

    @Test("B4: an empty edit changes nothing; a given media URL replaces the old one")
    func editRule() {
        let prayer = Prayer(id: UUID(), title: Self.title, text: Self.text, mediaURL: nil)
        #expect(PrayerEdit().applied(to: prayer) == prayer)
        #expect(PrayerEdit(mediaURL: "https://example.com/b.mp4").applied(to: prayer).mediaURL == "https://example.com/b.mp4")
    }

    @Test("B4: editing or removing a prayer that does not exist is refused as not found")
    func missingPrayerNotFound() async throws {
        let book = MemoryPrayerBook()
        await #expect(throws: PrayerRefusal.notFound) { _ = try await EditPrayer(prayers: book)(UUID(), with: PrayerEdit(titleEn: "x")) }
        await #expect(throws: PrayerRefusal.notFound) { try await RemovePrayer(prayers: book)(UUID()) }
    }

    @Test("B4: a removed prayer is gone, and removing it again is refused")
    func removeOnce() async throws {
        let book = MemoryPrayerBook()
        let added = try await AddPrayer(prayers: book)(title: Self.title, text: Self.text, mediaURL: nil)
        try await RemovePrayer(prayers: book)(added.id)
        #expect(book.all.isEmpty)
        await #expect(throws: PrayerRefusal.notFound) { try await RemovePrayer(prayers: book)(added.id) }
    }
}
