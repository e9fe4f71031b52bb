import Foundation
import PlatformCore
import PlatformEvents
import PlatformKafka
import ServiceTestSupport
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// The map with warning flags learnt from the warnings topic (W9) and the share texts (W10).
@Suite("weather-fetcher: map, warnings, share texts")
struct WeatherMapShareTests {
    static func mapNames(_ body: Any) -> [String] {
        JSONValue(body)["cities"].array.compactMap { $0["name"].string }
    }

    static func flagged(_ body: Any, _ name: String) -> Bool? {
        JSONValue(body)["cities"].array.first { $0["name"].string == name }?["hasActiveWarning"].bool
    }

    static func publish<Payload: Codable & Sendable>(
        _ type: EventType, _ payload: Payload, cityId: Int, to topic: String, at: Date = Date()
    ) async throws {
        let envelope = EventEnvelope(type: type, occurredAt: at, producer: "warning-detector", key: String(cityId), payload: payload)
        try await withProducer { producer in
            try await producer.send(KafkaOutgoingMessage(topic: topic, key: String(cityId), value: try envelope.encoded()))
        }
    }

    static func notice(_ city: City, id: UUID = UUID(), ends: Date, status: String = "Severe wind warning") -> WarningNotice {
        WarningNotice(
            warningId: id, cityId: city.id, announcementNumber: "2026-000042", location: city.name, region: city.region, kind: .wind,
            severity: .severe, status: status, statusDescription: "Gusts up to 95 km/h", onset: Date().addingTimeInterval(-600),
            ends: ends)
    }

    @Test("W9: the map lists only cities with data, filters by box (also across the antimeridian), and rejects a bad box")
    func mapBoxes() async throws {
        try await WeatherTestHarness.run { weather in
            for city in [WeatherFixtures.berlin, WeatherFixtures.bern, WeatherFixtures.suva, WeatherFixtures.honolulu] {
                let (status, _) = try await weather.get("/v1/cities/\(city.id)/weather")
                #expect(status == .ok)
            }
            var (status, body) = try await weather.get("/v1/map")
            #expect(status == .ok)
            #expect(Set(Self.mapNames(body)) == ["Berlin", "Bern", "Suva", "Honolulu"], "Bergen has no data yet")
            #expect(JSONValue(body)["cities"][0]["temperature"].string == "12°C")
            (_, body) = try await weather.get("/v1/map?south=40&west=0&north=60&east=20")
            #expect(Self.mapNames(body) == ["Berlin", "Bern"], "biggest first")
            (_, body) = try await weather.get("/v1/map?south=-30&west=170&north=30&east=-150")
            #expect(Set(Self.mapNames(body)) == ["Suva", "Honolulu"])
            (status, _) = try await weather.get("/v1/map?south=0&west=0&north=10&east=10")
            #expect(status == .ok)
        }
    }

    @Test("W9: warnings from the warnings topic flag the map and the city until cancelled; expired ones never count")
    func warningFlags() async throws {
        try await WeatherTestHarness.run { weather in
            for city in [WeatherFixtures.berlin, WeatherFixtures.bern] {
                _ = try await weather.get("/v1/cities/\(city.id)/weather")
            }
            let warningId = UUID()
            try await Self.publish(
                EventTypes.warningIssued, Self.notice(WeatherFixtures.berlin, id: warningId, ends: Date().addingTimeInterval(3_600)),
                cityId: WeatherFixtures.berlin.id, to: weather.warningsTopic)
            try await Self.publish(
                EventTypes.warningIssued, Self.notice(WeatherFixtures.bern, ends: Date().addingTimeInterval(-60)),
                cityId: WeatherFixtures.bern.id, to: weather.warningsTopic)
            #expect(
                try await eventually {
                    let (_, body) = try await weather.get("/v1/map")
                    return Self.flagged(body, "Berlin") == true
                })
            #expect(try await eventually { try await weather.count("SELECT count(*) FROM city_warnings") == 2 })
            var (_, body) = try await weather.get("/v1/map")
            #expect(Self.flagged(body, "Bern") == false, "Bern's warning already ended")
            (_, body) = try await weather.get("/v1/cities/\(WeatherFixtures.berlin.id)/weather")
            #expect(JSONValue(body)["hasActiveWarning"].bool == true)
            #expect(JSONValue(body)["warnings"][0]["status"].string == "Severe wind warning")
            // A3 here too: the start and end as the seed writes them, in the city's zone.
            let ends = try #require(JSONValue(body)["warnings"][0]["end"].string.flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(JSONValue(body)["warnings"][0]["endText"].string == WarningDateFormat.string(ends, timeZone: "Europe/Berlin"))
            #expect(JSONValue(body)["warnings"][0]["startText"].string?.wholeMatch(of: /\d\d:\d\d (AM|PM), [A-Z][a-z]+day, \d\d\/\d\d\/\d{4}/) != nil)
            var status: HTTPStatusCode
            (status, body) = try await weather.getStatus("/v1/cities/\(WeatherFixtures.berlin.id)/share?kind=warning")
            #expect(status == 200)
            #expect(
                JSONValue(body)["text"].string
                    == "Weather App: Watch out!! There is a warning in Berlin which is Severe wind warning Gusts up to 95 km/h")
            // An update changes it in place; a cancel removes it.
            try await Self.publish(
                EventTypes.warningUpdated,
                Self.notice(WeatherFixtures.berlin, id: warningId, ends: Date().addingTimeInterval(7_200), status: "Extreme wind warning"),
                cityId: WeatherFixtures.berlin.id, to: weather.warningsTopic)
            #expect(
                try await eventually {
                    let (_, body) = try await weather.get("/v1/cities/\(WeatherFixtures.berlin.id)/weather")
                    return JSONValue(body)["warnings"][0]["status"].string == "Extreme wind warning" && JSONValue(body)["warnings"].count == 1
                })
            try await Self.publish(
                EventTypes.warningCancelled, WarningCancelled(warningId: warningId, cityId: WeatherFixtures.berlin.id),
                cityId: WeatherFixtures.berlin.id, to: weather.warningsTopic)
            #expect(
                try await eventually {
                    let (_, body) = try await weather.get("/v1/map")
                    return Self.flagged(body, "Berlin") == false
                })
        }
    }

    @Test("W10: home, forecast and app share texts for a real city")
    func shareTexts() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["WEATHER_APP_NAME": "Skies", "WEATHER_APP_LINK": "https://apps.example/skies"]) {
            weather in
            let berlin = WeatherFixtures.berlin.id
            var (_, body) = try await weather.get("/v1/cities/\(berlin)/share")
            #expect(JSONValue(body)["text"].string == "Skies: The weather today in Berlin is 12°C Partly cloudy")
            (_, body) = try await weather.get("/v1/cities/\(berlin)/share?kind=app")
            #expect(JSONValue(body)["text"].string == "Skies https://apps.example/skies")
            let clock = try #require(LocalClock(identifier: "Europe/Berlin"))
            let tomorrow = clock.dayName(clock.startOfNextDay(after: Date()))
            (_, body) = try await weather.get("/v1/cities/\(berlin)/share?kind=forecast&day=1")
            let text = try #require(JSONValue(body)["text"].string)
            #expect(text.hasPrefix("Skies: The weather forecasts for this \(tomorrow) in Berlin is "))
            #expect(text.contains("humidity 70%") && text.contains("km/h W") && text.contains("pressure 1014 mb"))
        }
    }

    @Test("W10: a shared text's link opens a public page with Open Graph tags, the same link for the same text; gone after SHARE_LINK_DAYS")
    func sharePages() async throws {
        let base = "https://weather.example.com/w"
        try await WeatherTestHarness.run(
            extraEnvironment: [
                "WEATHER_APP_NAME": "Skies", "WEATHER_APP_LINK": "https://apps.example/skies", "PUBLIC_BASE_URL": base + "/", "SHARE_LINK_DAYS": "7",
            ]
        ) { weather in
            let berlin = WeatherFixtures.berlin.id
            var (_, body) = try await weather.get("/v1/cities/\(berlin)/share")
            let text = try #require(JSONValue(body)["text"].string)
            let url = try #require(JSONValue(body)["url"].string)
            #expect(url.hasPrefix("\(base)/share/weather/"), "absolute, the setting's trailing slash dropped: \(url)")
            let page = try await HTMLPage.fetch(url, base: base, from: weather.client)
            #expect(page.status == .ok && page.contentType.hasPrefix("text/html"))
            #expect(page.meta("og:title") == "Skies: Berlin" && page.meta("og:description") == text && page.meta("og:url") == url)
            #expect(page.meta("twitter:card") == "summary_large_image" && page.html.contains(text))
            let image = try #require(page.meta("og:image"))
            #expect(image == "\(base)/share/card.png")
            let card = try await HTMLPage.fetch(image, base: base, from: weather.client)
            #expect(card.status == .ok && card.contentType == "image/png")
            // The same text shared again keeps its link; another kind gets its own; the app's link needs no page.
            (_, body) = try await weather.get("/v1/cities/\(berlin)/share")
            #expect(JSONValue(body)["url"].string == url)
            (_, body) = try await weather.get("/v1/cities/\(berlin)/share?kind=forecast&day=1")
            let forecastURL = try #require(JSONValue(body)["url"].string)
            #expect(forecastURL != url)
            #expect(try await HTMLPage.fetch(forecastURL, base: base, from: weather.client).meta("og:description") == JSONValue(body)["text"].string)
            (_, body) = try await weather.get("/v1/cities/\(berlin)/share?kind=app")
            #expect(JSONValue(body)["url"].string == nil)
            // Unknown ids are a page too; a week on, the page is gone.
            #expect(try await HTMLPage.fetch("\(base)/share/weather/AAAAAAAAAA", base: base, from: weather.client).status == .notFound)
            #expect(try await HTMLPage.fetch("\(base)/share/weather/..%2Fx", base: base, from: weather.client).status != .ok)
            let id = try #require(url.split(separator: "/").last.map(String.init))
            #expect(try await weather.count("UPDATE shared_texts SET shared_at = now() - interval '8 days' WHERE id = '\(id)' RETURNING 1") == 1)
            let expired = try await HTMLPage.fetch(url, base: base, from: weather.client)
            #expect(expired.status == .gone && expired.html.contains("expired"))
        }
    }
}

typealias HTTPStatusCode = Int

extension WeatherTestHarness {
    func getStatus(_ path: String) async throws -> (Int, Any) {
        let (status, body) = try await get(path)
        return (status.code, body)
    }
}
