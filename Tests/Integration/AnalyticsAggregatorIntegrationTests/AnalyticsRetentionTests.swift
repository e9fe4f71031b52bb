import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U11: user keys and event ids are kept for a configured time; the dashboard's counts stay.
@Suite("analytics retention of user keys and event ids")
struct AnalyticsRetentionTests {
    @Test("X3, N2: past their retention a feature's user keys become its sketch and old event ids go; the counts stay")
    func retention() async throws {
        try await AnalyticsTestHarness.run(extraEnvironment: [
            "ANALYTICS_USER_KEYS_RETENTION_DAYS": "1", "ANALYTICS_APPLIED_IDS_RETENTION_DAYS": "31",
            "ANALYTICS_RETENTION_INTERVAL_MS": "1000",
        ]) { harness in
            let users = (1...3).map { "user-\($0)" }
            var events = users.map { AnalyticsTestHarness.event("feature_used", user: $0, feature: "radar") }
            events += users.map { AnalyticsTestHarness.event("feature_used", user: $0, feature: "search") }
            events.append(AnalyticsTestHarness.event("install", platform: "android"))
            try await harness.ingestAll(events)
            #expect(try await harness.waitForDownloads(1))
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM feature_users") == 6 })
            // Fresh rows stay through the runs that happen meanwhile.
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(try await harness.count("SELECT count(*)::int FROM feature_users") == 6)
            let appliedBefore = try await harness.count("SELECT count(*)::int FROM applied_events")
            #expect(appliedBefore == events.count)

            // Age radar's members and every event id past their retention.
            _ = try await harness.count(
                "WITH aged AS (UPDATE feature_users SET added_at = now() - interval '2 days' WHERE feature = 'radar' RETURNING 1) SELECT count(*)::int FROM aged"
            )
            _ = try await harness.count(
                "WITH aged AS (UPDATE applied_events SET applied_at = now() - interval '32 days' RETURNING 1) SELECT count(*)::int FROM aged")
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM applied_events") == 0 })
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM feature_users WHERE feature = 'radar'") == 0 })
            #expect(try await harness.count("SELECT count(*)::int FROM feature_users WHERE feature = 'search'") == 3, "younger members stay")

            let items = try await harness.stats("/v1/admin/stats/features?pageSize=10")["items"].array
            let radar = items.first { $0["name"].string == "radar" }
            let search = items.first { $0["name"].string == "search" }
            #expect(radar?["counting"].string == "approximate" && radar?["users"].int == 3 && radar?["uses"].int == 3)
            #expect(search?["counting"].string == "exact" && search?["users"].int == 3)
            #expect(try await harness.stats("/v1/admin/stats/home")["downloads"]["total"].int == 1, "counts are kept")
            // A later user of radar still counts, in the sketch.
            try await harness.ingestAll([AnalyticsTestHarness.event("feature_used", user: "user-4", feature: "radar")])
            #expect(
                try await eventually {
                    let after = try await harness.stats("/v1/admin/stats/features?pageSize=10")["items"].array
                    return after.first { $0["name"].string == "radar" }?["users"].int == 4
                })
        }
    }
}
