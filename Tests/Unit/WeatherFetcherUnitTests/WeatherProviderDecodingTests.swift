import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PlatformEvents
import PlatformHTTP
import Testing
import UnitTestSupport
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// W6: both providers' real JSON formats decode into one model, in the platform's units.
@Suite("weather-fetcher: provider decoding")
struct WeatherProviderDecodingTests {
    static let policy = ProviderHTTPPolicy(
        timeout: .seconds(1), maxAttempts: 1, baseBackoff: .milliseconds(1), maxBackoff: .milliseconds(1), requestsPerSecond: 100,
        circuitFailureThreshold: 3, circuitCoolDown: .seconds(1))

    static func http(_ name: String) -> ProviderHTTPClient {
        ProviderHTTPClient(provider: name, policy: policy, http: HTTPClient.shared, userAgent: "test", logger: Logger(label: "test"))
    }

    static let openMeteo = OpenMeteoProvider(http: http("open-meteo"), baseURL: "http://127.0.0.1:1", maxCitiesPerRequest: 50)
    static let worldWeatherOnline = WorldWeatherOnlineProvider(
        http: http("worldweatheronline"), baseURL: "http://127.0.0.1:1", apiKey: .init("test-key"))

    @Test("W5: daily dates follow the city's zone across a clock change: six days, each once, in Europe/Paris and America/New_York")
    func dailyDatesAcrossDST() throws {
        // Open-Meteo's answer on the Friday before each change: its utc_offset_seconds is that day's only.
        for (city, friday, expected) in [
            (
                City(
                    id: 2988507, name: "Paris", asciiName: "Paris", countryCode: "FR", country: "France", region: "Île-de-France",
                    latitude: 48.85341, longitude: 2.3488, timeZone: "Europe/Paris", population: 2138551),
                "2027-03-26T10:00:00Z", ["2027-03-26", "2027-03-27", "2027-03-28", "2027-03-29", "2027-03-30", "2027-03-31"]
            ),
            (
                City(
                    id: 5128581, name: "New York City", asciiName: "New York City", countryCode: "US", country: "United States", region: "New York",
                    latitude: 40.71427, longitude: -74.00597, timeZone: "America/New_York", population: 8804190),
                "2027-11-05T15:00:00Z", ["2027-11-05", "2027-11-06", "2027-11-07", "2027-11-08", "2027-11-09", "2027-11-10"]
            ),
        ] {
            let now = try #require(ISO8601DateFormatter().date(from: friday))
            let answer = OpenMeteoFake.answer(for: [(city.latitude, city.longitude, city.timeZone)], now: now)
            let reports = try Self.openMeteo.decode(ByteBuffer(string: answer), for: [city], fetchedAt: now)
            #expect(try #require(reports[city.id]).daily.map(\.date) == expected, "\(city.timeZone)")
        }
    }

    @Test("W6: a recorded Open-Meteo answer decodes with units, conditions, local day and nulls left out")
    func openMeteoRecordedAnswer() throws {
        let berlin = WeatherFixtures.berlin
        let reports = try Self.openMeteo.decode(ByteBuffer(string: WeatherFixtures.openMeteoRecorded), for: [berlin], fetchedAt: Date())
        let report = try #require(reports[berlin.id])
        #expect(report.provider == "open-meteo")
        #expect(report.current.temperatureC == 4.6)
        #expect(report.current.condition == .cloudy && report.current.description == "Overcast")
        #expect(report.current.pressureMb == 1009.8)
        #expect(report.current.windSpeedKmh == 14.8 && report.current.windDirectionDegrees == 247)
        #expect(report.current.dewPointC == 2.6 && report.current.humidityPercent == 87)
        #expect(report.current.visibilityKm == 18.6)
        #expect(report.current.observedAt == Date(timeIntervalSince1970: 1_732_352_400))
        #expect(report.hourly.count == 2, "the null hour is left out")
        #expect(report.hourly[1].condition == .rain && report.hourly[1].description == "Slight rain")
        #expect(report.hourly[1].precipitationMm == 0.3 && report.hourly[1].windGustKmh == 27)
        #expect(report.daily.count == 1)
        // 1732316400 is 2024-11-22T23:00Z, which is midnight of the 23rd in Berlin.
        #expect(report.daily[0].date == "2024-11-23")
        #expect(report.daily[0].maxTemperatureC == 6.1 && report.daily[0].minTemperatureC == 2.4)
        #expect(report.daily[0].sunrise == Date(timeIntervalSince1970: 1_732_344_467))
    }

    @Test("W6: a multi-city Open-Meteo answer maps each location to its city, in request order")
    func openMeteoBatchAnswer() throws {
        let cities = [WeatherFixtures.berlin, WeatherFixtures.sydney, WeatherFixtures.honolulu]
        let body = WeatherFixtures.openMeteoAnswer(for: cities.map { ($0.latitude, $0.longitude, $0.timeZone) })
        let reports = try Self.openMeteo.decode(ByteBuffer(string: body), for: cities, fetchedAt: Date())
        #expect(Set(reports.keys) == Set(cities.map(\.id)))
        for city in cities {
            let report = try #require(reports[city.id])
            #expect(report.daily.count == 6 && report.hourly.count == 144)
            let clock = try #require(LocalClock(identifier: city.timeZone))
            #expect(report.daily[0].date == clock.dayKey(Date()), "daily starts with the city's own today")
        }
    }

    @Test("W6: the Open-Meteo request batches coordinates and asks for the units the seed needs")
    func openMeteoRequestURL() throws {
        let cities = [WeatherFixtures.berlin, WeatherFixtures.sydney]
        let url = try #require(URLComponents(string: Self.openMeteo.url(for: cities)))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(url.path == "/v1/forecast")
        #expect(query["latitude"]?.hasPrefix("52.5244,-33.867") == true && query["longitude"] == "13.4105,151.2073")
        #expect(query["timezone"] == "Europe/Berlin,Australia/Sydney")
        #expect(query["wind_speed_unit"] == "kmh" && query["timeformat"] == "unixtime")
        #expect(query["current"]?.contains("pressure_msl") == true && query["current"]?.contains("visibility") == true)
    }

    @Test("W6: malformed, truncated and error answers from Open-Meteo are clear errors, not crashes")
    func openMeteoBadAnswers() throws {
        let berlin = WeatherFixtures.berlin
        let bern = WeatherFixtures.bern
        #expect(throws: ProviderError.self) { try Self.openMeteo.decode(ByteBuffer(string: "{\"latitude\": 52"), for: [berlin], fetchedAt: Date()) }
        #expect(throws: ProviderError.self) { try Self.openMeteo.decode(ByteBuffer(string: "<html>502</html>"), for: [berlin], fetchedAt: Date()) }
        // One location for a two-city request: the answer does not fit the question.
        #expect(throws: ProviderError.self) {
            try Self.openMeteo.decode(ByteBuffer(string: "[\(WeatherFixtures.openMeteoRecorded)]"), for: [berlin, bern], fetchedAt: Date())
        }
        do {
            _ = try Self.openMeteo.decode(
                ByteBuffer(string: #"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}"#), for: [berlin],
                fetchedAt: Date())
            Issue.record("an error answer decoded")
        } catch {
            #expect(error == .rejected("Latitude must be in range of -90 to 90°. Given: 91.0."))
        }
    }

    @Test("W6: a WorldWeatherOnline answer decodes: strings to numbers, local times in the city's zone, dew point from the nearest hour")
    func worldWeatherOnlineAnswer() throws {
        let berlin = WeatherFixtures.berlin
        let body = WeatherFixtures.worldWeatherOnlineAnswer(today: "2024-11-23", tomorrow: "2024-11-24")
        let report = try Self.worldWeatherOnline.decode(ByteBuffer(string: body), for: berlin, fetchedAt: Date())
        #expect(report.provider == "worldweatheronline")
        #expect(report.current.temperatureC == 3 && report.current.condition == .cloudy && report.current.description == "Overcast")
        #expect(report.current.pressureMb == 1012 && report.current.windSpeedKmh == 15 && report.current.windDirectionDegrees == 240)
        #expect(report.current.humidityPercent == 87 && report.current.visibilityKm == 10)
        // 10:15 AM in Berlin on 23 November is 09:15 UTC; the 10:00 hour is nearest and has dew point 1.
        #expect(report.current.observedAt == Date(timeIntervalSince1970: 1_732_353_300))
        #expect(report.current.dewPointC == 1)
        #expect(report.hourly.count == 5)
        #expect(report.hourly[0].time == Date(timeIntervalSince1970: 1_732_348_800), "900 is 09:00 local = 08:00 UTC")
        #expect(report.hourly[4].condition == .snow && report.hourly[4].snowfallCm == 0.4)
        #expect(report.daily.map(\.date) == ["2024-11-23", "2024-11-24"])
        #expect(report.daily[0].condition == .rain && report.daily[0].description == "Light rain")
        #expect(report.daily[0].sunrise == Date(timeIntervalSince1970: 1_732_344_300), "07:45 AM local")
        #expect(report.daily[0].sunset == Date(timeIntervalSince1970: 1_732_374_120), "04:02 PM local")
    }

    @Test("W6: WorldWeatherOnline's in-band errors and malformed answers are clear errors")
    func worldWeatherOnlineErrors() throws {
        let berlin = WeatherFixtures.berlin
        do {
            _ = try Self.worldWeatherOnline.decode(ByteBuffer(string: WeatherFixtures.worldWeatherOnlineError), for: berlin, fetchedAt: Date())
            Issue.record("an error answer decoded")
        } catch {
            #expect(error == .rejected("API key has reached calls per day allowed limit."))
        }
        let broken = WeatherFixtures.worldWeatherOnlineAnswer(today: "2024-11-23", tomorrow: "2024-11-24")
            .replacingOccurrences(of: #""temp_C":"3""#, with: #""temp_C":"warm""#)
        #expect(throws: ProviderError.self) { try Self.worldWeatherOnline.decode(ByteBuffer(string: broken), for: berlin, fetchedAt: Date()) }
        #expect(throws: ProviderError.self) { try Self.worldWeatherOnline.decode(ByteBuffer(string: "[]"), for: berlin, fetchedAt: Date()) }
    }

    @Test("W6: the WorldWeatherOnline request carries the key, the coordinates and hourly steps")
    func worldWeatherOnlineRequestURL() throws {
        let url = try #require(URLComponents(string: Self.worldWeatherOnline.url(for: WeatherFixtures.berlin)))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(url.path == "/premium/v1/weather.ashx")
        #expect(query["key"] == "test-key" && query["q"] == "52.5244,13.4105" && query["tp"] == "1" && query["format"] == "json")
    }

    @Test("W6: every WMO code Open-Meteo documents maps to a condition")
    func conditionCodes() {
        for code in [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99] {
            #expect(WeatherCondition.fromWMO(code) != nil, "WMO \(code)")
        }
        #expect(WeatherCondition.fromWMO(42) == nil)
        #expect(WeatherCondition.fromWorldWeatherOnline(113) == .clear)
        #expect(WeatherCondition.fromWorldWeatherOnline(389) == .thunderstorm)
    }
}
