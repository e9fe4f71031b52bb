import Foundation

/// An admin adds a prayer to the prayer book (B4).
struct AddPrayer: Sendable {
    let prayers: any PrayerBook

    /// Throws `PrayerRefusal.notKept` when the store kept nothing.
    func callAsFunction(title: Localized, text: Localized, mediaURL: String?) async throws -> Prayer {
        guard let prayer = try await prayers.add(title: title, text: text, mediaURL: mediaURL) else { throw PrayerRefusal.notKept }
        return prayer
    }
}
