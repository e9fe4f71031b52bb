import Foundation
import PlatformCore

/// The free daily horoscope (B4): the same for everyone with the sign and the day. A signed-in asker's is kept in
/// their history (once per sign and day, within the day's limit) and shared by its id; after a bad verdict it comes
/// with places to pray near the asker, asked of places-importer only for a member.
package struct ReadDailyHoroscope: Sendable {
    package let readings: ReadingService

    package init(readings: ReadingService) {
        self.readings = readings
    }

    package struct Answer: Sendable {
        package var reading: Reading
        /// The kept reading, for a signed-in asker.
        package var stored: StoredReading?
        package var placesToPray: ReadingService.PlacesToPray?

        package init(reading: Reading, stored: StoredReading? = nil, placesToPray: ReadingService.PlacesToPray? = nil) {
            self.reading = reading
            self.stored = stored
            self.placesToPray = placesToPray
        }
    }

    /// `caller`: the signed-in asker, nil for an anonymous one; only a member's bad reading asks places-importer for
    /// places (`PlacesSearch`), within `network`'s share. Throws `TooManyReadings` past the day's limit.
    package func callAsFunction(
        _ sign: ReadingContent.Sign, on day: CivilDate, for caller: AuthenticatedUser?, from network: String, near position: (Double, Double)?
    ) async throws -> Answer {
        let reading = readings.engine.horoscope(sign: sign, on: day)
        let places = try await readings.placesToPray(after: reading, near: position, search: PlacesSearch(for: caller, network: network))
        guard let caller else { return Answer(reading: reading, stored: nil, placesToPray: places) }
        let stored = try await readings.keep(reading, user: AccountKey.of(caller.id), inputs: sign.id, day: day)
        return Answer(reading: stored.reading, stored: stored, placesToPray: places)
    }
}
