import Foundation
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import WarningDetector

/// Warnings from forecast events through the real consumer, Postgres and broker (A1-A3, X2).
@Suite("warning-detector: warnings from forecasts")
struct WarningLifecycleTests {
    static let berlin = WarningFixtures.berlin

    static func warnings(_ harness: WarningTestHarness, city: Int = berlin.id) async throws -> [JSONValue] {
        try await harness.request(.get, "/v1/cities/\(city)/warnings").1["warnings"].array
    }

    @Test("A1, A2: issue on a crossing, update (same number) when a later forecast changes it, cancel when it is gone; each published")
    func issueUpdateCancel() async throws {
        try await WarningTestHarness.run { harness in
            let start = Date()
            try await harness.publishForecast(WarningFixtures.heat(29.5, hours: 2...4, fetchedAt: start))
            try await harness.publishForecast(WarningFixtures.heat(31, hours: 2...4, fetchedAt: start.addingTimeInterval(60)))
            #expect(try await eventually { try await Self.warnings(harness).count == 1 })
            let issued = try await Self.warnings(harness)[0]
            #expect(issued["kind"].string == "heat" && issued["severity"].string == "Moderate")
            #expect(issued["status"].string == "Moderate heat warning" && issued["location"].string == "Berlin")
            #expect(issued["region"].string == "Land Berlin, Germany")
            #expect(issued["announcementNumber"].string?.wholeMatch(of: /\d{4}-\d{6}/) != nil)
            #expect(issued["onsetText"].string?.wholeMatch(of: /\d\d:\d\d (AM|PM), [A-Z][a-z]+day, \d\d\/\d\d\/\d{4}/) != nil)
            // The same forecast again (a new event) changes nothing; a hotter one updates the same warning.
            try await harness.publishForecast(WarningFixtures.heat(31, hours: 2...4, fetchedAt: start.addingTimeInterval(120)))
            try await harness.publishForecast(WarningFixtures.heat(37, hours: 2...6, fetchedAt: start.addingTimeInterval(180)))
            #expect(try await eventually { try await Self.warnings(harness).first?["severity"].string == "Severe" })
            let updated = try await Self.warnings(harness)
            #expect(updated.count == 1 && updated[0]["id"].string == issued["id"].string)
            #expect(updated[0]["announcementNumber"].string == issued["announcementNumber"].string)
            // The heat is gone from the next forecast: cancelled, no longer served.
            try await harness.publishForecast(WarningFixtures.forecast(fetchedAt: start.addingTimeInterval(240)))
            #expect(try await eventually { try await Self.warnings(harness).isEmpty })
            let consumer = try makeConsumer(topics: [harness.warningsTopic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let messages = try await collect(3, from: consumer, timeout: .seconds(10))
            await consumer.close()
            let types = try messages.map { try ReceivedEvent(bytes: $0.value).header.type }
            #expect(types == [EventTypes.warningIssued, EventTypes.warningUpdated, EventTypes.warningCancelled])
            #expect(messages.allSatisfy { $0.key == Array(String(Self.berlin.id).utf8) })
        }
    }

    @Test("A2: an expired warning is never served; an older forecast arriving late changes nothing")
    func expiryAndStaleForecasts() async throws {
        try await WarningTestHarness.run { harness in
            // Forecast from three hours ago with heat in its first hour: the warning ended two hours ago.
            let earlier = Date().addingTimeInterval(-3 * 3_600)
            try await harness.publishForecast(WarningFixtures.heat(33, hours: 0...0, fetchedAt: earlier))
            #expect(try await harness.waitProcessed(atLeast: 1))
            #expect(try await harness.count("SELECT count(*)::int FROM warnings") == 1)
            #expect(try await Self.warnings(harness).isEmpty, "ended, so not served")
            let box = "/v1/warnings?south=50&west=10&north=55&east=15"
            #expect(try await harness.request(.get, box).1["warnings"].array.isEmpty)
            // A current heat warning, then an older forecast without heat: it does not cancel the newer one.
            let now = Date()
            try await harness.publishForecast(WarningFixtures.heat(33, hours: 2...3, fetchedAt: now))
            try await harness.publishForecast(WarningFixtures.forecast(fetchedAt: now.addingTimeInterval(-600)))
            #expect(try await harness.waitProcessed(atLeast: 3))
            #expect(try await Self.warnings(harness).count == 1)
            #expect(try await harness.request(.get, box).1["warnings"].array.count == 1)
            #expect(try await harness.request(.get, "/v1/warnings?south=-20&west=170&north=-10&east=180").1["warnings"].array.isEmpty)
        }
    }

    @Test("X2: the same forecast event consumed twice issues one warning; a malformed one goes to the dead-letter topic")
    func duplicatesAndDeadLetters() async throws {
        try await WarningTestHarness.run { harness in
            let forecast = WarningFixtures.forecast { index, hour in if index == 3 { hour.windGustKmh = 95 } }
            let envelope = try await harness.publishForecast(forecast)
            try await harness.publish(envelope, to: harness.forecastsTopic)
            try await harness.publishRaw(Array(#"{"not":"an envelope"}"#.utf8), key: "1", to: harness.forecastsTopic)
            var broken = forecast
            broken.city.timeZone = "Mars/Olympus_Mons"
            try await harness.publishForecast(broken)
            // A good event after the bad ones is still applied.
            try await harness.publishForecast(WarningFixtures.heat(35, hours: 1...2, city: WarningFixtures.suva))
            #expect(try await eventually { try await Self.warnings(harness, city: WarningFixtures.suva.id).count == 1 })
            #expect(try await harness.count("SELECT count(*)::int FROM warnings WHERE city_id = \(Self.berlin.id)") == 1)
            let consumer = try makeConsumer(
                topics: [Topic.deadLetterName(of: harness.forecastsTopic)], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let dead = try await collect(2, from: consumer, timeout: .seconds(15))
            await consumer.close()
            #expect(dead.count == 2)
        }
    }
}
