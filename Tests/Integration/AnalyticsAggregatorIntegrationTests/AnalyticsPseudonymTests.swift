import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import ServiceTestSupport
import TestSupport
import Testing

@testable import AnalyticsAggregator

/// The kept telemetry topic names an account only by a pseudonym that goes with the account (U9), and the numbers
/// built from it are the same whichever form an account's events have (N2, N6).
@Suite("analytics-aggregator: accounts on the kept telemetry topic")
struct AnalyticsPseudonymTests {
    /// The current generation's uses and distinct users of the weather app's `feature`.
    static func feature(_ feature: String, _ harness: AnalyticsTestHarness) async throws -> (uses: Int, users: Int) {
        let current = "JOIN generations g ON g.id = f.generation AND g.state = 'current' WHERE f.app = 'weather' AND f.feature = '\(feature)'"
        let uses = try await harness.count("SELECT coalesce(sum(f.uses), 0)::int FROM features f \(current)")
        let users = try await harness.count("SELECT coalesce(sum(f.users), 0)::int FROM features f \(current)")
        return (uses, users)
    }

    @Test(
        "U9, N6: an account counts once whether its events name its id (written before pseudonyms) or its pseudonym; deleted, its name goes, late events count without it, and a rebuild reads no id"
    )
    func idAndPseudonymForms() async throws {
        try await AnalyticsTestHarness.run { harness in
            let account = UUID()
            let id = account.uuidString.lowercased()
            let telemetryTopic = harness.topics["ANALYTICS_TELEMETRY_TOPIC"]
            // An event from before pseudonyms: the id on the topic (upper case, as Foundation spells a UUID), as the key too.
            let old = EventEnvelope(
                type: EventTypes.telemetryRecorded, producer: "analytics-aggregator", key: "u:\(account.uuidString)",
                payload: TelemetryRecorded(
                    app: .weather, clientEventId: UUID(), kind: .featureUsed, deviceId: "phone-1", userId: account.uuidString,
                    feature: "radar"))
            try await harness.publish(old, to: telemetryTopic)
            #expect(try await eventually { try await Self.feature("radar", harness).uses == 1 })
            // An app may send the id in upper case: it is the same account, named by the same pseudonym.
            try await harness.ingestAll([AnalyticsTestHarness.event("feature_used", user: id.uppercased(), feature: "radar")])
            #expect(try await eventually { try await Self.feature("radar", harness).uses == 2 })
            #expect(try await Self.feature("radar", harness).users == 1, "one account, two forms")
            let pseudonym = try await harness.db.text("SELECT pseudonym FROM account_pseudonyms WHERE account = '\(id)'")
            #expect(try await harness.count("SELECT count(*)::int FROM feature_users WHERE user_key = 'p:\(pseudonym ?? "")'") == 1)

            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.userDeleted, producer: "auth", key: id, payload: UserDeleted(userId: account, by: .owner)),
                to: harness.usersTopic)
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM account_pseudonyms") == 0 })
            #expect(try await Self.feature("radar", harness).users == 1, "the count stays, without the account")
            // A late event of the deleted account counts, and names nobody: no pseudonym is made for it again.
            try await harness.ingestAll([AnalyticsTestHarness.event("feature_used", user: id, feature: "radar")])
            #expect(try await eventually { try await Self.feature("radar", harness).uses == 3 })
            #expect(try await harness.count("SELECT count(*)::int FROM account_pseudonyms") == 0)
            #expect(try await harness.db.columnsMentioning(id).isEmpty)

            // A rebuild reads the three events: the old one names an erased id, the others names no row holds.
            let lines = LineCollector()
            try await Rebuild(environment: harness.environment, logger: Logger(label: "pseudonym-rebuild")) { lines.append($0) }.run()
            #expect(lines.all.contains { $0.contains("switched to generation 2") }, "\(lines.all)")
            let rebuilt = try await Self.feature("radar", harness)
            #expect(rebuilt.uses == 3 && rebuilt.users == 0, "the deleted account's uses count; no user is named")
            #expect(try await harness.count("SELECT count(*)::int FROM account_pseudonyms") == 0, "a rebuild names no erased account")
        }
    }

    @Test("U9: a poll answer or survey submission of an account erased while the request ran writes nothing and is 401")
    func writesAfterErasure() async throws {
        try await AnalyticsTestHarness.run { harness in
            let erased = ErasedAccounts(key: .random())
            let account = UUID().uuidString.lowercased()
            try await harness.db.client.withConnection { connection in
                try await ErasedAccountsStore.record(account, in: erased, on: connection, logger: harness.db.logger)
            }
            let polls = PollStore(client: harness.db.client, topic: "unused", erased: erased, logger: harness.db.logger)
            await #expect(throws: SurveyRefusal.accountDeleted) { try await polls.answer(user: account, answers: [("benefit", true)]) }
            let surveys = SurveyStore(
                client: harness.db.client, topic: "unused", erased: erased, coupons: SurveyCoupons(windowDays: 30), logger: harness.db.logger)
            await #expect(throws: SurveyRefusal.accountDeleted) {
                try await surveys.submitService(user: account, service: "rooms", ratings: ["good"], points: 80)
            }
            #expect(try await harness.db.columnsMentioning(account).isEmpty)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox") == 0)
            #expect(SurveyErrors.answer(for: .accountDeleted).status == .unauthorized)
        }
    }
}
