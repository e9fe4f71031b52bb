import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Telemetry ingest (N1) against the real broker and Postgres: idempotent by event id, each event judged on
/// its own, bad batches refused with a JSON error and nothing else lost, late events on their own day.
@Suite("analytics ingest (N1)")
struct AnalyticsIngestTests {
    @Test("N1: a batch sent twice counts once")
    func duplicateBatch() async throws {
        try await AnalyticsTestHarness.run { harness in
            let batch = (0..<20).map { _ in AnalyticsTestHarness.event("install") }
            let (status, body) = try await harness.ingest(batch)
            #expect(status == .accepted)
            #expect(body["accepted"].int == 20)
            #expect(try await harness.waitForDownloads(20))
            // The same batch again, then one new event: once that one counts, the repeat has been consumed too.
            let (again, _) = try await harness.ingest(batch)
            #expect(again == .accepted)
            try await harness.ingestAll([AnalyticsTestHarness.event("install")])
            #expect(try await harness.waitForDownloads(21))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.stats("/v1/admin/stats/home")["downloads"]["total"].int == 21)
            // A repeat inside one batch is taken once and said so.
            let twice = AnalyticsTestHarness.event("install")
            let (_, answer) = try await harness.ingest([twice, twice])
            #expect(answer["accepted"].int == 2 && answer["duplicates"].int == 1)
            #expect(try await harness.waitForDownloads(22))
        }
    }

    @Test("N1: bad events are reported by index and the good ones kept; a batch of only bad ones is 422")
    func perEventValidation() async throws {
        try await AnalyticsTestHarness.run { harness in
            var future = AnalyticsTestHarness.event("install", at: Date().addingTimeInterval(3_600))
            future["platform"] = "ios"
            let ancient = AnalyticsTestHarness.event("install", at: Date().addingTimeInterval(-40 * 86_400))
            var wrongType = AnalyticsTestHarness.event("install")
            wrongType["deviceId"] = 42
            let noFeature = AnalyticsTestHarness.event("feature_used")
            var badKind = AnalyticsTestHarness.event("install")
            badKind["kind"] = "uninstall"
            var badPlatform = AnalyticsTestHarness.event("install")
            badPlatform["platform"] = "symbian"
            let good = [AnalyticsTestHarness.event("install"), AnalyticsTestHarness.event("install", platform: "android")]
            let events: [[String: any Sendable]] = [good[0], future, ancient, wrongType, noFeature, badKind, badPlatform, good[1]]
            let (status, body) = try await harness.ingest(events)
            #expect(status == .accepted)
            #expect(body["accepted"].int == 2)
            let rejected = body["rejected"].array.map { ($0["index"].int ?? -1, $0["code"].string ?? "") }
            #expect(rejected.map(\.0) == [1, 2, 3, 4, 5, 6])
            #expect(rejected.map(\.1) == ["in_the_future", "too_old", "wrong_type", "missing_field", "invalid_kind", "invalid_platform"])
            #expect(try await harness.waitForDownloads(2))

            let (allBad, error) = try await harness.ingest([future, ancient])
            #expect(allBad == .unprocessableContent)
            #expect(error["error"]["code"].string == "no_valid_events")
            #expect(error["error"]["details"]["0"].string?.hasPrefix("in_the_future") == true)
        }
    }

    @Test("N1: wrong or missing app keys, malformed and oversized batches get 4xx JSON errors")
    func badBatches() async throws {
        try await AnalyticsTestHarness.run { harness in
            let one = [AnalyticsTestHarness.event("install")]
            let (wrongKey, wrongBody) = try await harness.ingest(one, key: "not-a-key-of-any-app")
            #expect(wrongKey == .unauthorized && wrongBody["error"]["code"].string == "invalid_app_key")
            let (noKey, _) = try await harness.ingest(one, key: nil)
            #expect(noKey == .unauthorized)
            let (malformed, malformedBody) = try await harness.send(
                .post, "/v1/telemetry", body: Data("{\"events\": [".utf8), appKey: AnalyticsTestHarness.weatherKey)
            #expect(malformed == .badRequest && malformedBody["error"]["code"].string == "invalid_json")
            let (notArray, _) = try await harness.send(
                .post, "/v1/telemetry", body: Data("{\"events\": 5}".utf8), appKey: AnalyticsTestHarness.weatherKey)
            #expect(notArray == .badRequest)
            let (empty, _) = try await harness.ingest([])
            #expect(empty == .badRequest)
            let (tooMany, tooManyBody) = try await harness.ingest(Array(repeating: AnalyticsTestHarness.event("install"), count: 501))
            #expect(tooMany == .contentTooLarge && tooManyBody["error"]["code"].string == "too_many_events")
            var big = AnalyticsTestHarness.event("install")
            big["padding"] = String(repeating: "x", count: 300 * 1024)
            let (oversized, oversizedBody) = try await harness.ingest([big])
            #expect(oversized == .contentTooLarge && oversizedBody["error"]["code"].string != nil)
            let (wrongType, _) = try await harness.send(
                .post, "/v1/telemetry", body: Data("events".utf8), appKey: AnalyticsTestHarness.weatherKey, contentType: "text/plain")
            #expect(wrongType == .unsupportedMediaType)
            // None of that was stored, and the service still takes a good batch.
            try await harness.ingestAll(one)
            #expect(try await harness.waitForDownloads(1))
        }
    }

    @Test("X3: telemetry past the per-address and per-app quotas is 429 with Retry-After, and not stored")
    func quotas() async throws {
        try await AnalyticsTestHarness.run(extraEnvironment: [
            "TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS": "4", "TELEMETRY_EVENTS_PER_MINUTE_PER_APP": "1000",
        ]) { harness in
            try await waitForRoomInTheMinute()
            let three = (0..<3).map { _ in AnalyticsTestHarness.event("install") }
            try await harness.ingestAll(three)
            let (refused, body) = try await harness.ingest(three)
            #expect(refused == .tooManyRequests && body["error"]["code"].string == "rate_limited")
            #expect(try await harness.waitForDownloads(3))
        }
        try await AnalyticsTestHarness.run(extraEnvironment: [
            "TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS": "1000", "TELEMETRY_EVENTS_PER_MINUTE_PER_APP": "2",
        ]) { harness in
            try await waitForRoomInTheMinute()
            try await harness.ingestAll([AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.weatherKey)
            let (refused, body) = try await harness.ingest(
                [AnalyticsTestHarness.event("install"), AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.weatherKey)
            #expect(refused == .tooManyRequests && body["error"]["message"].string?.contains("weather") == true)
            // Another app's quota is its own.
            try await harness.ingestAll([AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.placesKey)
        }
    }

    @Test("N1: an app's second key works while the first is rotated out; another app's key counts for that app")
    func keyRotation() async throws {
        try await AnalyticsTestHarness.run { harness in
            try await harness.ingestAll([AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.weatherKey)
            try await harness.ingestAll([AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.weatherNextKey)
            try await harness.ingestAll([AnalyticsTestHarness.event("install")], key: AnalyticsTestHarness.placesKey)
            #expect(try await harness.waitForDownloads(3))
            let byApp = try await harness.stats("/v1/admin/stats/home")["downloads"]["byApp"].array
            let counts = Dictionary(uniqueKeysWithValues: byApp.map { ($0["key"].string ?? "", $0["count"].int ?? 0) })
            #expect(counts == ["weather": 2, "places": 1])
        }
    }

    @Test("N2: late and out-of-order events land on the day they happened")
    func lateEvents() async throws {
        try await AnalyticsTestHarness.run { harness in
            let now = Date()
            let days = [0, 3, 1, 3, 9, 0, 3].map { now.addingTimeInterval(-Double($0) * 86_400) }
            // Sent newest-last in a scrambled order, in two batches.
            let events = days.map { AnalyticsTestHarness.event("install", at: $0) }
            try await harness.ingestAll(Array(events.suffix(3)))
            try await harness.ingestAll(Array(events.prefix(4)))
            #expect(try await harness.waitForDownloads(7))
            let rows = try await harness.stats("/v1/admin/stats/downloads?app=weather&platform=ios")["items"].array
            let perDay = Dictionary(uniqueKeysWithValues: rows.map { ($0["day"].string ?? "", $0["count"].int ?? 0) })
            let formatter = Date.ISO8601FormatStyle().year().month().day()
            func day(_ ago: Int) -> String { now.addingTimeInterval(-Double(ago) * 86_400).formatted(formatter) }
            #expect(perDay == [day(0): 2, day(1): 1, day(3): 3, day(9): 1])
            // Newest day first, and `from`/`to` narrow it.
            #expect(rows.first?["day"].string == day(0))
            let narrowed = try await harness.stats("/v1/admin/stats/downloads?from=\(day(3))&to=\(day(1))")
            #expect(narrowed["total"].int == 2)
            let (badRange, _) = try await harness.request(
                .get, "/v1/admin/stats/downloads?from=\(day(1))&to=\(day(3))", bearer: try await harness.adminToken())
            #expect(badRange == .unprocessableContent)
        }
    }
}
