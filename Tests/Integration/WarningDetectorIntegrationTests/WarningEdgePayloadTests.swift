import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import ServiceTestSupport
import TestSupport
import Testing

@testable import WarningDetector

@Suite("warning-detector's event handler on payloads at the edges")
struct WarningEdgePayloadTests {
    @Test("X2: 400 generated forecast and favourite events are each applied or dead-lettered as permanent, never a trap")
    func edgePayloadsApplyOrDeadLetter() async throws {
        try await withTestDatabase(schema: "warning_detector", migrations: warningDetectorMigrations) { db in
            let configuration = try WarningConfiguration(environment: EnvironmentReader([:]))
            let handler = ConsumedTopics.handlers(
                detector: WarningDetector(rules: configuration.rules, horizon: configuration.horizon),
                warnings: WarningStore(client: db.client, logger: db.logger, topic: "test.warnings"), erased: ErasedAccounts(key: .random()))
            let processor = IdempotentProcessor(client: db.client)
            var values = EdgeValues(seed: 20_261_123)
            var tally = EdgeTally()
            for index in 0..<400 {
                let envelope = index % 5 == 4 ? try favouriteEvent(&values) : try forecastEvent(&values)
                await tally.run(envelope, case: index, processor: processor, handler: handler, topic: "test.forecasts", logger: db.logger)
            }
            #expect(tally.applied > 20, "some generated events are plausible and must apply (applied \(tally.applied))")
            #expect(tally.deadLettered > 100, "most edge cases must be refused (dead-lettered \(tally.deadLettered))")
        }
    }

    private func forecastEvent(_ values: inout EdgeValues) throws -> [UInt8] {
        let now = Date()
        let fetchedAt = values.next() % 4 == 0 ? values.date(around: now) : now
        let hours = (0..<Int(values.next() % 60)).map { index in
            EdgeForecastHour(
                time: values.next() % 10 == 0 ? values.date(around: now) : now.addingTimeInterval(Double(index) * 3_600),
                temperatureC: values.double(plausible: -30...45), condition: values.pick(["clear", "thunderstorm", "", "snow"]),
                description: values.text(), windSpeedKmh: values.double(plausible: 0...150),
                windGustKmh: values.next() % 2 == 0 ? nil : values.double(plausible: 0...200),
                precipitationMm: values.double(plausible: 0...60), snowfallCm: values.double(plausible: 0...8),
                visibilityKm: values.next() % 2 == 0 ? nil : values.double(plausible: 0...30))
        }
        let city = ForecastCity(
            id: values.int(), name: values.text(), region: values.text(), countryCode: "FR", country: values.text(),
            latitude: values.double(plausible: -90...90), longitude: values.double(plausible: -180...180), timeZone: values.timeZone())
        let forecast = EdgeForecast(
            city: city, provider: "open-meteo", fetchedAt: fetchedAt, currentTemperatureC: values.double(plausible: -30...45),
            currentCondition: "clear", currentDescription: values.text(), hours: hours)
        return try EventEnvelope(
            type: EventTypes.forecastUpdated, occurredAt: values.next() % 8 == 0 ? values.date(around: now) : now,
            producer: "weather-fetcher", key: "\(city.id)", payload: forecast
        ).encoded()
    }

    private func favouriteEvent(_ values: inout EdgeValues) throws -> [UInt8] {
        let city = ForecastCity(
            id: values.int(), name: values.text(), region: "", countryCode: "TH", country: "Thailand", latitude: 13.7,
            longitude: 100.5, timeZone: values.timeZone())
        return try EventEnvelope(
            type: values.pick([EventTypes.favouriteAdded, EventTypes.favouriteRemoved, EventType("favourite.unknown")]),
            producer: "weather-fetcher", key: "u", payload: FavouriteChanged(userId: values.text(), city: city)
        ).encoded()
    }
}

/// `ForecastHour` as any producer might write it: its condition as any text, so the handler meets values outside the
/// closed set too.
private struct EdgeForecastHour: Codable {
    var time: Date
    var temperatureC: Double
    var condition: String
    var description: String
    var windSpeedKmh: Double
    var windGustKmh: Double?
    var precipitationMm: Double
    var snowfallCm: Double
    var visibilityKm: Double?
}

/// `ForecastUpdated` with `EdgeForecastHour`s and its current condition as any text.
private struct EdgeForecast: Codable {
    var city: ForecastCity
    var provider: String
    var fetchedAt: Date
    var currentTemperatureC: Double
    var currentCondition: String
    var currentDescription: String
    var hours: [EdgeForecastHour]
}
