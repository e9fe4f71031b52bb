import Foundation

/// An admin removes a prayer from the prayer book (B4).
struct RemovePrayer: Sendable {
    let prayers: any PrayerBook

    /// Throws `PrayerRefusal.notFound` when there is no prayer with this id.
    func callAsFunction(_ id: UUID) async throws {
        guard try await prayers.remove(id) else { throw PrayerRefusal.notFound }
    }
}
