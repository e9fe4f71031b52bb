import Foundation

/// A prayer of the prayer book (B4): a chant in Thai and English with an optional media URL an admin entered.
struct Prayer: Sendable, Equatable {
    var id: UUID
    var title: Localized
    var text: Localized
    var mediaURL: String?
}

/// An admin's edit of a prayer (B4): each field given replaces the prayer's, each left out keeps it.
struct PrayerEdit: Sendable, Equatable {
    var titleEn: String?
    var titleTh: String?
    var textEn: String?
    var textTh: String?
    var mediaURL: String?

    /// `prayer` as the edit leaves it (the Postgres store writes the same with `coalesce`).
    func applied(to prayer: Prayer) -> Prayer {
        var edited = prayer
        edited.title = Localized(en: titleEn ?? prayer.title.en, th: titleTh ?? prayer.title.th)
        edited.text = Localized(en: textEn ?? prayer.text.en, th: textTh ?? prayer.text.th)
        edited.mediaURL = mediaURL ?? prayer.mediaURL
        return edited
    }
}

/// Why the prayer book refuses an admin's change (B4); the API maps each to its 404.
enum PrayerRefusal: Error, Equatable {
    /// No prayer with this id.
    case notFound
    /// The store returned no row for a new prayer.
    case notKept
}
