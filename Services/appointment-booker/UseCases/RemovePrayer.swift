import Foundation

/// An admin removes a prayer from the prayer book (B4).
package struct RemovePrayer: Sendable {
    package let prayers: any PrayerBook

    package init(prayers: any PrayerBook) {
        self.prayers = prayers
    }

    /// Throws `PrayerRefusal.notFound` when there is no prayer with this id.
    package func callAsFunction(_ id: UUID) async throws {
        guard try await prayers.remove(id) else { throw PrayerRefusal.notFound }
    }
}
