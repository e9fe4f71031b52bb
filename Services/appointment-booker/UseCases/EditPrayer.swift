import Foundation

/// An admin edits a prayer of the prayer book (B4): what the edit names changes, the rest stays.
package struct EditPrayer: Sendable {
    package let prayers: any PrayerBook

    package init(prayers: any PrayerBook) {
        self.prayers = prayers
    }

    /// Throws `PrayerRefusal.notFound` when there is no prayer with this id.
    package func callAsFunction(_ id: UUID, with edit: PrayerEdit) async throws -> Prayer {
        guard let prayer = try await prayers.update(id, with: edit) else { throw PrayerRefusal.notFound }
        return prayer
    }
}
