import Foundation

/// What an admin's changes to the prayer book need from storage: `PrayerStore` in Postgres, a memory one in the
/// unit tests.
package protocol PrayerBook: Sendable {
    /// The new prayer as stored; nil if the store returned no row.
    func add(title: Localized, text: Localized, mediaURL: String?) async throws -> Prayer?
    /// The prayer as `edit` left it; nil when there is no prayer with this id.
    func update(_ id: UUID, with edit: PrayerEdit) async throws -> Prayer?
    /// Whether there was a prayer with this id to remove.
    func remove(_ id: UUID) async throws -> Bool
}
