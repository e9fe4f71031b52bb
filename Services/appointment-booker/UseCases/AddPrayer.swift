import Foundation

/// An admin adds a prayer to the prayer book (B4).
package struct AddPrayer: Sendable {
    package let prayers: any PrayerBook

    package init(prayers: any PrayerBook) {
        self.prayers = prayers
    }

    /// Throws `PrayerRefusal.notKept` when the store kept nothing.
    package func callAsFunction(title: Localized, text: Localized, mediaURL: String?) async throws -> Prayer {
        guard let prayer = try await prayers.add(title: title, text: text, mediaURL: mediaURL) else { throw PrayerRefusal.notKept }
        return prayer
    }
}
