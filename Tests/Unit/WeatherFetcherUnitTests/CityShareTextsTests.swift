import Foundation
import Testing

@testable import WeatherFetcher

/// The share texts of a city (W10) over fixed sources: the warning text names the city's active warning, and a
/// missing link, warning or weather is a reason, not a text.
@Suite("weather-fetcher: CityShareTexts")
struct CityShareTextsTests {
    struct FixedWarnings: ActiveCityWarnings {
        var warnings: [Int: [ActiveCityWarning]] = [:]
        func active(cityId: Int) async throws -> [ActiveCityWarning] { warnings[cityId] ?? [] }
    }

    struct NoWeather: LatestCityWeather {
        func weather(for city: City, requestedBy caller: String, now: Date) async throws -> LatestWeather? { nil }
    }

    static let berlin = UserCityListsTests.berlin
    static let heat = ActiveCityWarning(
        warningId: UUID(), announcementNumber: "2026-000001", severity: "Severe", status: "Severe heat warning",
        statusDescription: "Temperatures up to 36 °C expected.", onset: Date(), ends: Date() + 3_600)

    func texts(warnings: FixedWarnings = .init(), appLink: String? = nil) -> CityShareTexts {
        CityShareTexts(reader: NoWeather(), warnings: warnings, texts: ShareTexts(appName: "Weather App"), appLink: appLink)
    }

    @Test("W10: the warning text names the city's active warning")
    func warningText() async throws {
        let shared = texts(warnings: FixedWarnings(warnings: [Self.berlin.id: [Self.heat]]))
        let text = try await shared.text(.warning, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        #expect(text == "Weather App: Watch out!! There is a warning in Berlin which is Severe heat warning Temperatures up to 36 °C expected.")
    }

    @Test("W10: no active warning, no app link or no weather is the reason there is no text")
    func unavailable() async throws {
        await #expect(throws: CityShareTexts.Unavailable.noActiveWarning(city: "Berlin")) {
            _ = try await texts().text(.warning, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        }
        await #expect(throws: CityShareTexts.Unavailable.noAppLink) {
            _ = try await texts().text(.app, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        }
        await #expect(throws: CityShareTexts.Unavailable.weatherUnavailable) {
            _ = try await texts().text(.home, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        }
        #expect(
            try await texts(appLink: "https://example.org/app").text(.app, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
                == "Weather App https://example.org/app")
    }

    /// Keeps texts in memory, numbering their pages.
    final class MemorySharedTexts: SharedTexts, @unchecked Sendable {
        // @unchecked: written only by the test's one task.
        var kept: [(cityId: Int, kind: String, text: String)] = []
        func keep(cityId: Int, kind: String, text: String) async throws -> String {
            kept.append((cityId, kind, text))
            return "page-\(kept.count)"
        }
    }

    @Test("W10: a shared text gets a public page of its own, but the app's own link is the text's link and keeps none")
    func sharePages() async throws {
        let pages = MemorySharedTexts()
        let share = ShareCity(
            texts: texts(warnings: FixedWarnings(warnings: [Self.berlin.id: [Self.heat]]), appLink: "https://example.org/app"), pages: pages)
        let warning = try await share(.warning, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        #expect(warning.pageId == "page-1" && warning.text.contains("Severe heat warning"))
        #expect(pages.kept.map(\.kind) == ["warning"] && pages.kept.first?.text == warning.text)
        let app = try await share(.app, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        #expect(app == ShareCity.Shared(text: "Weather App https://example.org/app", pageId: nil))
        #expect(pages.kept.count == 1)
        await #expect(throws: CityShareTexts.Unavailable.weatherUnavailable) {
            _ = try await share(.home, day: 0, city: Self.berlin, requestedBy: "203.0.113.7")
        }
        #expect(pages.kept.count == 1)
    }
}
