import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Testing
import UnitTestSupport

@testable import WarningDetector

/// The threshold rules and the presentation helpers, as pure logic (A1, A3, A5, A6).
@Suite("warning-detector: rules and formats")
struct WarningRuleTests {
    /// The rules a service with no rule settings runs.
    static var defaultRules: [WarningRule] {
        get throws { try WarningConfiguration(environment: EnvironmentReader([:])).rules }
    }

    static func detect(_ forecast: ForecastUpdated, horizonHours: Int = 48) throws -> [DetectedWarning] {
        WarningDetector(rules: try Self.defaultRules, horizon: .seconds(3_600 * horizonHours)).detect(forecast)
    }

    @Test("A1: every rule fires at its threshold and not just below it")
    func thresholds() throws {
        let cases: [(String, (inout ForecastHour) -> Void, (inout ForecastHour) -> Void)] = [
            ("heat", { $0.temperatureC = 30 }, { $0.temperatureC = 29.9 }),
            ("frost", { $0.temperatureC = 0 }, { $0.temperatureC = 0.1 }),
            ("wind", { $0.windGustKmh = 60 }, { $0.windGustKmh = 59.9 }),
            ("storm", { $0.condition = .thunderstorm }, { $0.condition = .rain }),
            ("heavy-rain", { $0.precipitationMm = 10 }, { $0.precipitationMm = 9.9 }),
            ("snow", { $0.snowfallCm = 1 }, { $0.snowfallCm = 0.9 }),
            ("low-visibility", { $0.visibilityKm = 1 }, { $0.visibilityKm = 1.1 }),
        ]
        for (kind, crossing, below) in cases {
            let fired = try Self.detect(WarningFixtures.forecast { index, hour in if index == 5 { crossing(&hour) } })
            #expect(fired.map(\.kind.rawValue) == [kind], "\(kind) at its threshold")
            let quiet = try Self.detect(WarningFixtures.forecast { index, hour in if index == 5 { below(&hour) } })
            #expect(quiet.isEmpty, "\(kind) just below its threshold")
        }
    }

    @Test("A1: a run of hours gives onset, end, the worst severity and the peak; a gap ends the run; the horizon limits")
    func runs() throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let start = WarningFixtures.hourStart(fetchedAt)
        let forecast = WarningFixtures.forecast(fetchedAt: fetchedAt) { index, hour in
            switch index {
            case 3: hour.temperatureC = 31
            case 4: hour.temperatureC = 36.4
            case 5: hour.temperatureC = 33
            case 7: hour.temperatureC = 41  // after a gap: not part of the first run
            default: break
            }
        }
        let heat = try #require(try Self.detect(forecast).first)
        #expect(heat.kind == .heat && heat.severity == .severe && heat.peak == 36.4)
        #expect(heat.onset == start.addingTimeInterval(3 * 3_600) && heat.ends == start.addingTimeInterval(6 * 3_600))
        #expect(heat.status == "Severe heat warning" && heat.statusDescription == "Temperatures up to 36 °C expected.")
        // Heat 7 hours ahead is beyond a 6-hour horizon.
        #expect(try Self.detect(WarningFixtures.heat(35, hours: 7...8, fetchedAt: fetchedAt), horizonHours: 6).isEmpty)
        // Hours already over at the forecast's time are ignored.
        var past = WarningFixtures.heat(35, hours: 0...1, fetchedAt: fetchedAt)
        past.fetchedAt = fetchedAt.addingTimeInterval(3 * 3_600)
        #expect(try Self.detect(past).isEmpty)
    }

    @Test("A1: thresholds come from configuration and are checked")
    func configuration() throws {
        let rules = try WarningConfiguration(environment: EnvironmentReader(["WARNING_HEAT_C": "25,28,31"])).rules
        let detector = WarningDetector(rules: rules, horizon: .seconds(48 * 3_600))
        #expect(detector.detect(WarningFixtures.heat(28, hours: 2...3)).first?.severity == .severe)
        #expect(throws: ConfigError.self) { try WarningConfiguration(environment: EnvironmentReader(["WARNING_HEAT_C": "35,30,40"])) }
        #expect(throws: ConfigError.self) { try WarningConfiguration(environment: EnvironmentReader(["WARNING_FROST_C": "0,-5"])) }
    }

    @Test("A3: dates read 01:00 AM, Monday, 15/10/2015 in the city's time zone")
    func dateFormat() {
        // 2015-10-14T23:00:00Z is 01:00 on Thursday 15 October in Berlin (CEST, UTC+2).
        let date = Date(timeIntervalSince1970: 1_444_863_600)
        #expect(WarningDateFormat.string(date, timeZone: "Europe/Berlin") == "01:00 AM, Thursday, 15/10/2015")
        #expect(WarningDateFormat.string(date, timeZone: "America/New_York") == "07:00 PM, Wednesday, 14/10/2015")
    }

    @Test("A5: the daily message goes out only in the first hours of the device's local day")
    func localDay() {
        // 2026-11-23T23:30:00Z: 00:30 on the 24th in Berlin, 18:30 on the 23rd in New York, 11:30 on the 24th in Fiji.
        let now = Date(timeIntervalSince1970: 1_795_476_600)
        #expect(DailyForecastScheduler.localDay(of: now, timeZone: "Europe/Berlin", within: .seconds(6 * 3_600)) == "2026-11-24")
        #expect(DailyForecastScheduler.localDay(of: now, timeZone: "America/New_York", within: .seconds(6 * 3_600)) == nil)
        #expect(DailyForecastScheduler.localDay(of: now, timeZone: "Pacific/Fiji", within: .seconds(6 * 3_600)) == nil)
        #expect(DailyForecastScheduler.localDay(of: now, timeZone: "Not/AZone", within: .seconds(6 * 3_600)) == nil)
    }

    @Test("A6: news dates are parsed strictly")
    func newsDates() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(NewsRules.moment("2026-11-23", "14:30", in: utc) == Date(timeIntervalSince1970: 1_795_444_200))
        #expect(NewsRules.moment("2026-02-30", "14:30", in: utc) == nil)
        #expect(NewsRules.moment("2026-11-23", "25:00", in: utc) == nil)
        #expect(NewsRules.moment("23/11/2026", "14:30", in: utc) == nil)
    }

    @Test("A5: push payloads carry the seed's title and the APNs alert shape")
    func payloads() throws {
        let daily = PushMessage.dailyForecast(
            city: WarningFixtures.berlin, today: nil, temperatureC: 21.4, condition: "clear", description: "Clear sky")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(daily.utf8)) as? [String: Any])
        let alert = try #require((object["aps"] as? [String: Any])?["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Look! Weather around you!" && alert["subtitle"] as? String == "Berlin")
        #expect(alert["body"] as? String == "21 °C, Clear sky" && object["condition"] as? String == "clear")
        let withDay = PushMessage.dailyForecast(
            city: WarningFixtures.berlin, today: DailyExtremes(date: "2026-11-24", maxC: 24.4, minC: 14.6), temperatureC: 21.4,
            condition: "clear", description: "Clear sky")
        let dayObject = try #require(try JSONSerialization.jsonObject(with: Data(withDay.utf8)) as? [String: Any])
        let dayAlert = try #require((dayObject["aps"] as? [String: Any])?["alert"] as? [String: Any])
        #expect(dayAlert["body"] as? String == "Max 24 °C, min 15 °C, Clear sky" && dayObject["maxC"] as? Int == 24)
    }
}
