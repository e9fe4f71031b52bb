import Foundation
import NIOCore
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// The city weather cache's entry (W3, W8): a signed-in answer is one of two bodies encoded with the entry, the same
/// JSON as encoding the generated type with the caller's `isFavourite` would give.
@Suite("weather-fetcher: the city weather entry's bodies")
struct CityWeatherEntryTests {
    @Test("W3, W8: the bodies are the generated type's encoding, with isFavourite nil, true and false")
    func personalBodiesMatchEncoding() throws {
        let now = WeatherPresentationTests.afternoon
        let city = WeatherFixtures.berlin
        let report = WeatherPresentationTests.report(now: now, city: city)
        let presenter = try #require(CityWeatherPresenter(city: city, now: now))
        let view = CityWeatherDTO(
            city: CityDTO(city), provider: report.provider, updatedAt: report.fetchedAt, updatedMinutesAgo: 0,
            updated: CityWeatherPresenter.updatedText(minutes: 0), stale: false, staleReason: nil,
            current: presenter.current(report.current), rightNow: presenter.rightNow(report), hourly: presenter.hours(report),
            daily: presenter.days(report), hasActiveWarning: false, warnings: [], isFavourite: nil)
        let entry = try CityWeatherEntry(view: view, encoder: CityWeatherRoute.encoder)
        // JSONEncoder's key order is not the same from one encoding to the next: the JSON is compared, not the bytes.
        for isFavourite in [true, false] {
            var personal = view
            personal.isFavourite = isFavourite
            let body = entry.personalBody(isFavourite: isFavourite)
            #expect(try Self.json(body) == Self.json(ByteBuffer(bytes: CityWeatherRoute.encoder.encode(personal))))
            #expect(try Self.decoder.decode(CityWeatherDTO.self, from: Data(body.readableBytesView)) == personal)
        }
        #expect(try Self.json(entry.anonymousBody) == Self.json(ByteBuffer(bytes: CityWeatherRoute.encoder.encode(view))))
        #expect(try Self.json(entry.anonymousBody)["isFavourite"] == nil)
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The body as a JSON object, keys in no particular order.
    static func json(_ body: ByteBuffer) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? NSDictionary)
    }
}
