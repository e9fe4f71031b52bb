import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import ServiceTestSupport
import TestSupport
import Testing

@testable import WeatherFetcher

@Suite("weather-fetcher's warning handler on payloads at the edges")
struct WeatherEdgePayloadTests {
    @Test("X2: 300 generated warning events are each applied or dead-lettered as permanent, never a trap")
    func edgeWarningEventsApplyOrDeadLetter() async throws {
        try await withTestDatabase(schema: "weather_fetcher", migrations: weatherFetcherMigrations) { db in
            let processor = IdempotentProcessor(client: db.client)
            var values = EdgeValues(seed: 7_031)
            var tally = EdgeTally()
            for index in 0..<300 {
                let now = Date()
                let bytes: [UInt8]
                if index % 4 == 3 {
                    bytes = try EventEnvelope(
                        type: EventTypes.warningCancelled, producer: "warning-detector", key: "k",
                        payload: WarningCancelled(warningId: UUID(), cityId: values.int())
                    ).encoded()
                } else {
                    let onset = values.next() % 3 == 0 ? values.date(around: now) : now
                    let notice = EdgeWarningNotice(
                        warningId: UUID(), cityId: values.int(), announcementNumber: values.text(), location: values.text(),
                        region: values.text(), kind: values.pick(["heat", "storm", "", "unknown-kind"]),
                        severity: values.pick(["Moderate", "Extreme", ""]), status: values.text(), statusDescription: values.text(),
                        onset: onset, ends: values.next() % 3 == 0 ? values.date(around: now) : onset.addingTimeInterval(3_600))
                    bytes = try EventEnvelope(
                        type: values.pick([EventTypes.warningIssued, EventTypes.warningUpdated, EventType("warning.unknown")]),
                        occurredAt: values.next() % 6 == 0 ? values.date(around: now) : now, producer: "warning-detector", key: "k",
                        payload: notice
                    ).encoded()
                }
                await tally.run(bytes, case: index, processor: processor, handler: WarningsTopicHandler(), topic: "test.warnings", logger: db.logger)
            }
            #expect(tally.applied > 20, "plausible events must apply (applied \(tally.applied))")
            #expect(tally.deadLettered > 50, "edge cases must be refused (dead-lettered \(tally.deadLettered))")
        }
    }
}

/// `WarningNotice` as any producer might write it: its kind and severity as any text, so the handler meets values
/// outside the closed sets too.
private struct EdgeWarningNotice: Codable {
    var warningId: UUID
    var cityId: Int
    var announcementNumber: String
    var location: String
    var region: String
    var kind: String
    var severity: String
    var status: String
    var statusDescription: String
    var onset: Date
    var ends: Date
}
