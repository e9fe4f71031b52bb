import Crypto
import Foundation
import PlatformCore

/// What the reading operations share (B4): the content, the engine, the stored readings and the places of
/// worship read model.
package struct ReadingService: Sendable {
    package let content: ReadingContent
    package let engine: ReadingEngine
    package let store: any ReadingArchive
    package let worship: any WorshipPlaces
    package let worshipRequests: any WorshipRequests
    package let placesRadius: Double
    /// Where the public reaches the share pages (`PUBLIC_BASE_URL`), and how long a stored reading's page is shown.
    package let sharing: Sharing

    package struct Sharing: Sendable {
        package var baseURL: String
        package var lifetime: TimeInterval

        package init(baseURL: String, lifetime: TimeInterval) {
            self.baseURL = baseURL
            self.lifetime = lifetime
        }

        /// A stored reading's public page.
        package func url(shareId: String) -> String { "\(baseURL)/share/readings/\(shareId)" }
        /// The daily horoscope's public page: the same for everyone with the sign and day, so nothing is stored.
        package func url(sign: String, day: String) -> String { "\(baseURL)/share/horoscope/\(sign)?date=\(day)" }
        package var imageURL: String { "\(baseURL)/share/card.png" }

        package func hasExpired(_ stored: StoredReading, now: Date = Date()) -> Bool {
            stored.createdAt.addingTimeInterval(lifetime) < now
        }
    }

    package init(
        content: ReadingContent, key: String, store: any ReadingArchive, worship: any WorshipPlaces, worshipRequests: any WorshipRequests,
        placesRadius: Double, sharing: Sharing
    ) {
        self.content = content
        engine = ReadingEngine(content: content, key: SymmetricKey(data: Data(key.utf8)))
        self.store = store
        self.worship = worship
        self.worshipRequests = worshipRequests
        self.placesRadius = placesRadius
        self.sharing = sharing
    }

    /// Keeps `reading` in `user`'s history (see `ReadingArchive.keep`); past the day's limit, `TooManyReadings`
    /// (`BookingErrors.answer(for:)` makes it HTTP).
    package func keep(_ reading: Reading, user: String, inputs: String, day: CivilDate) async throws -> StoredReading {
        try await store.keep(reading, user: user, inputs: inputs, day: day, contentVersion: content.version)
    }

    package struct PlacesToPray: Sendable {
        package var places: [NearbyWorshipPlace]
        package var status: PlacesToPrayStatus

        package init(places: [NearbyWorshipPlace], status: PlacesToPrayStatus) {
            self.places = places
            self.status = status
        }
    }

    /// Places to pray near `position` after a bad verdict (B4), nearest first; nil otherwise. Where the read model
    /// knows none, a member's reading asks places-importer for them (`looking` until it answers); anyone else's is
    /// told what is known and asks nobody (`PlacesSearch`).
    package func placesToPray(after reading: Reading, near position: (Double, Double)?, search: PlacesSearch) async throws -> PlacesToPray? {
        guard reading.verdict == .bad, let (latitude, longitude) = position else { return nil }
        let places = try await worship.near(latitude: latitude, longitude: longitude, radius: placesRadius, limit: 5)
        if !places.isEmpty { return PlacesToPray(places: places, status: .found) }
        switch search {
        case .askingWhenUnknown(let network):
            let status = try await worshipRequests.status(latitude: latitude, longitude: longitude, radius: placesRadius, network: network)
            return PlacesToPray(places: [], status: status)
        case .knownOnly:
            // Nobody is asked, so nothing is being looked for unless a member's reading asked already.
            return PlacesToPray(places: [], status: try await worshipRequests.known(latitude: latitude, longitude: longitude) ?? .none)
        }
    }
}
