import Foundation
import PlatformEvents
import Testing
import UnitTestSupport

@testable import WarningDetector

/// The values a forecast event may carry before warning rules run on it (X2, A1): anything no weather can have is
/// a permanent error naming the field, so the event is dead-lettered rather than trapping or warning anyone.
@Suite("warning-detector: forecast events checked before the rules")
struct ForecastValidationTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// The reason `forecast` is refused for, or nil when it passes.
    static func refusal(_ forecast: ForecastUpdated) -> String? {
        do {
            try ForecastValidation.validate(forecast)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("X2: a plausible forecast passes, at the edges of every range too")
    func plausibleForecastPasses() {
        #expect(Self.refusal(WarningFixtures.forecast(fetchedAt: Self.fetchedAt)) == nil)
        let edges = WarningFixtures.forecast(fetchedAt: Self.fetchedAt, temperature: -100) { _, hour in
            hour.temperatureC = 70
            hour.windSpeedKmh = 600
            hour.windGustKmh = nil
            hour.precipitationMm = 1_000
            hour.snowfallCm = 500
            hour.visibilityKm = nil
        }
        #expect(Self.refusal(edges) == nil)
        #expect(Self.refusal(WarningFixtures.forecast(WarningFixtures.suva, fetchedAt: Self.fetchedAt)) == nil)
    }

    /// A change that makes a plausible forecast impossible, and the field its refusal must name.
    struct Impossible: Sendable, CustomTestStringConvertible {
        var field: String
        var change: @Sendable (inout ForecastUpdated) -> Void
        var testDescription: String { field }
    }

    static let impossible: [Impossible] = [
        Impossible(field: "hours[3].temperatureC") { $0.hours[3].temperatureC = 1e300 },
        Impossible(field: "hours[0].windSpeedKmh") { $0.hours[0].windSpeedKmh = -1 },
        Impossible(field: "hours[5].windGustKmh") { $0.hours[5].windGustKmh = 601 },
        Impossible(field: "hours[1].precipitationMm") { $0.hours[1].precipitationMm = -0.1 },
        Impossible(field: "hours[2].snowfallCm") { $0.hours[2].snowfallCm = .nan },
        Impossible(field: "hours[4].visibilityKm") { $0.hours[4].visibilityKm = .infinity },
        Impossible(field: "hours[7].time") { $0.hours[7].time = ForecastValidationTests.fetchedAt.addingTimeInterval(41 * 86_400) },
        Impossible(field: "currentTemperatureC") { $0.currentTemperatureC = -273 },
        Impossible(field: "city.id") { $0.city.id = 0 },
        Impossible(field: "city.latitude") { $0.city.latitude = 91 },
        Impossible(field: "city.longitude") { $0.city.longitude = -180.5 },
        Impossible(field: "city.timeZone") { $0.city.timeZone = "Mars/Olympus_Mons" },
        Impossible(field: "city.name") { $0.city.name = String(repeating: "ก", count: 200) },
        Impossible(field: "hours is more than") {
            $0.hours = (0..<(24 * 31 + 1)).map { WarningFixtures.hour(ForecastValidationTests.fetchedAt.addingTimeInterval(Double($0) * 3_600)) }
        },
    ]

    @Test("X2: an impossible value is refused with the field that holds it", arguments: impossible)
    func impossibleValueRefused(_ impossible: Impossible) throws {
        var forecast = WarningFixtures.forecast(fetchedAt: Self.fetchedAt)
        impossible.change(&forecast)
        let reason = try #require(Self.refusal(forecast))
        #expect(reason.contains(impossible.field), "\(reason)")
    }

    @Test("U8: a push is Thai for a device that named th or th-TH in any case, English otherwise")
    func readerLanguage() {
        for thai in ["th", "TH", "th-TH", "Th-th"] { #expect(ReaderLanguage.isThai(thai), "\(thai)") }
        for other in [nil, "", "en", "the", "tha", "en-TH"] { #expect(!ReaderLanguage.isThai(other), "\(other ?? "nil")") }
    }
}
