import Foundation

/// A prayer of the prayer book (B4): a chant in Thai and English with an optional media URL an admin entered.
package struct Prayer: Sendable, Equatable {
    package var id: UUID
    package var title: Localized
    package var text: Localized
    package var mediaURL: String?

    package init(id: UUID, title: Localized, text: Localized, mediaURL: String? = nil) {
        self.id = id
        self.title = title
        self.text = text
        self.mediaURL = mediaURL
    }
}

/// An admin's edit of a prayer (B4): each field given replaces the prayer's, each left out keeps it.
package struct PrayerEdit: Sendable, Equatable {
    package var titleEn: String?
    package var titleTh: String?
    package var textEn: String?
    package var textTh: String?
    package var mediaURL: String?

    package init(titleEn: String? = nil, titleTh: String? = nil, textEn: String? = nil, textTh: String? = nil, mediaURL: String? = nil) {
        self.titleEn = titleEn
        self.titleTh = titleTh
        self.textEn = textEn
        self.textTh = textTh
        self.mediaURL = mediaURL
    }

    /// `prayer` as the edit leaves it (the Postgres store writes the same with `coalesce`).
    package func applied(to prayer: Prayer) -> Prayer {
        var edited = prayer
        edited.title = Localized(en: titleEn ?? prayer.title.en, th: titleTh ?? prayer.title.th)
        edited.text = Localized(en: textEn ?? prayer.text.en, th: textTh ?? prayer.text.th)
        edited.mediaURL = mediaURL ?? prayer.mediaURL
        return edited
    }
}

/// Why the prayer book refuses an admin's change (B4); the API maps each to its 404.
package enum PrayerRefusal: Error, Equatable {
    /// No prayer with this id.
    case notFound
    /// The store returned no row for a new prayer.
    case notKept
}
