import Foundation
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Testing
import UnitTestSupport
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// The refresh reads, stores and announces every city's forecast without `JSONDecoder`/`JSONEncoder` (W6):
/// held here to what Foundation reads and writes of the same values.
@Suite("weather-fetcher: the refresh's hand-written JSON against Foundation's")
struct RefreshJSONTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_123.456)

    /// Answers as the fake Open-Meteo writes them for every fixture city at once, one city, the recorded answer, and
    /// an answer with extra members and whitespace the reader must skip.
    static func answers() -> [String] {
        let locations = WeatherFixtures.cities.map { ($0.latitude, $0.longitude, $0.timeZone) }
        let many = OpenMeteoFake.answer(for: locations, now: now)
        return [
            many, OpenMeteoFake.answer(for: [locations[0]], now: now, temperature: -7.25), WeatherFixtures.openMeteoRecorded,
            many.replacingOccurrences(of: "\"timezone\":", with: "\"extra\" : {\"a\": [1, null, \"]\"]},\n \"timezone\":"),
        ]
    }

    @Test("W6: Open-Meteo's answers read the same as JSONDecoder reads them")
    func scanMatchesDecoder() throws {
        for answer in Self.answers() {
            let data = Data(answer.utf8)
            let decoded: [OpenMeteoResponse]
            if let many = try? JSONDecoder().decode([OpenMeteoResponse].self, from: data) {
                decoded = many
            } else {
                decoded = [try JSONDecoder().decode(OpenMeteoResponse.self, from: data)]
            }
            #expect(try OpenMeteoResponse.scan(Array(data)) == .locations(decoded))
        }
        #expect(
            try OpenMeteoResponse.scan(Array(#"{"error": true, "reason": "Latitude must be in range"}"#.utf8))
                == .rejected(reason: "Latitude must be in range"))
    }

    @Test("W6: an answer cut short, missing a field or with a wrong type is refused as malformed, never a trap")
    func malformedAnswersRefused() throws {
        let berlin = WeatherFixtures.berlin
        let answer = OpenMeteoFake.answer(for: [(berlin.latitude, berlin.longitude, berlin.timeZone)], now: Self.now)
        let provider = WeatherProviderDecodingTests.openMeteo
        for length in stride(from: 0, to: answer.utf8.count - 1, by: 37) {
            let cut = String(decoding: Array(answer.utf8)[..<length], as: UTF8.self)
            #expect(throws: ProviderError.self) { try provider.decode(ByteBuffer(string: cut), for: [berlin], fetchedAt: Self.now) }
        }
        for broken in [
            answer.replacingOccurrences(of: "\"utc_offset_seconds\"", with: "\"offset\""),
            answer.replacingOccurrences(of: "\"weather_code\":2", with: "\"weather_code\":\"2\""),
            answer.replacingOccurrences(of: "\"weather_code\":2", with: "\"weather_code\":2.5"),
        ] {
            #expect(broken != answer)
            #expect(throws: ProviderError.self) { try provider.decode(ByteBuffer(string: broken), for: [berlin], fetchedAt: Self.now) }
        }
    }

    static func reports() throws -> [WeatherReport] {
        let cities = WeatherFixtures.cities
        let answer = OpenMeteoFake.answer(for: cities.map { ($0.latitude, $0.longitude, $0.timeZone) }, now: Self.now)
        let reports = try WeatherProviderDecodingTests.openMeteo.decode(ByteBuffer(string: answer), for: cities, fetchedAt: Self.now)
        return cities.compactMap { reports[$0.id] }
    }

    @Test("W6: a report stored by hand reads back equal with the storage decoder")
    func storedFormRoundTrips() throws {
        var reports = try Self.reports()
        #expect(reports.count == WeatherFixtures.cities.count)
        reports[0].current.visibilityKm = nil
        reports[0].current.description = "quoted \"fog\" \\ new\nline"
        for report in reports {
            let stored = try report.storedJSON()
            #expect(try WeatherReport.storageDecoder.decode(WeatherReport.self, from: Data(stored.utf8)) == report)
        }
        reports[1].hourly[3].temperatureC = .infinity
        #expect(throws: JSONWriter.NotFinite.self) { try reports[1].storedJSON() }
    }

    @Test("W6: forecast.updated written by hand is what JSONEncoder writes, and reads back equal")
    func eventMatchesEncoder() throws {
        for (city, report) in zip(WeatherFixtures.cities, try Self.reports()) {
            let event = ForecastEventFactory.event(for: city, report: report)
            let written = try event.encoded()
            let foundation = Array(try EventCoding.encoder.encode(event))
            let differ = zip(written, foundation).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, foundation.count)
            #expect(
                written == foundation,
                "first difference at \(differ): \(String(decoding: written.dropFirst(max(0, differ - 40)).prefix(80), as: UTF8.self)) against \(String(decoding: foundation.dropFirst(max(0, differ - 40)).prefix(80), as: UTF8.self))"
            )
            let read = try EventCoding.decoder.decode(EventEnvelope<ForecastUpdated>.self, from: Data(written))
            #expect(read.payload.hours.count == event.payload.hours.count && read.id == event.id && read.key == event.key)
        }
    }
}
