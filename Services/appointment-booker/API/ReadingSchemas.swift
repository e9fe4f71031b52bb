import Foundation
import PlatformCore
import PlatformHTTP

/// Readings and prayers in the generated schemas, in the caller's language.
extension Components.Schemas.Reading {
    init(
        _ reading: Reading, id: UUID?, language: Language, shareUrl: String, places: ReadingService.PlacesToPray?,
        ceremony: (area: LifeArea, ceremony: Ceremony)?
    ) {
        let verdictWord = reading.verdict.word
        self.init(
            id: id.map(AccountKey.of), kind: KindPayload(rawValue: reading.kind.rawValue) ?? .horoscope, date: reading.date,
            language: language == .thai ? .th : .en, title: reading.title.text(language), text: reading.text.text(language),
            verdict: VerdictPayload(rawValue: reading.verdict.rawValue) ?? .neutral,
            scores: .init(love: reading.scores.love, work: reading.scores.work, money: reading.scores.money, health: reading.scores.health),
            parts: reading.parts.map { .init(label: $0.label.text(language), text: $0.text.text(language)) }, stickNumber: reading.stickNumber,
            shareText: "\(reading.title.text(language)), \(reading.date): \(verdictWord.text(language)). \(shareUrl)", shareUrl: shareUrl,
            placesToPray: places?.places.map {
                .init(name: $0.name, latitude: $0.latitude, longitude: $0.longitude, address: $0.address, distanceMeters: $0.distanceMeters)
            },
            placesStatus: places.flatMap { PlacesStatusPayload(rawValue: $0.status.rawValue) },
            ceremony: ceremony.map { area, ceremony in
                .init(
                    area: .init(rawValue: area.rawValue) ?? .love, title: ceremony.title.text(language),
                    place: .init(rawValue: ceremony.place.rawValue) ?? .temple, placeName: ceremony.placeName.text(language),
                    bring: ceremony.bring.map { $0.text(language) }, steps: ceremony.steps.map { $0.text(language) })
            })
    }
}

extension Components.Schemas.Reading {
    /// A stored reading as anyone holding its share link reads it (`getSharedReading`): masked as its public page is.
    init(shared stored: StoredReading, language: Language, readings: ReadingService) {
        self.init(
            ShareMasking.shared(stored.reading), id: stored.id, language: language, shareUrl: readings.sharing.url(shareId: stored.shareId),
            places: nil, ceremony: readings.content.ceremony(after: stored.reading))
    }
}

extension Components.Schemas.Prayer {
    init(_ prayer: PrayerStore.Prayer, language: Language) {
        self.init(
            id: AccountKey.of(prayer.id), title: prayer.title.text(language), text: prayer.text.text(language),
            language: language == .thai ? .th : .en, mediaUrl: prayer.mediaURL)
    }
}
