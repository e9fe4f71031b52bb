import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U5 and U9 through auth, the broker and analytics-aggregator: poll answers and a member's place among a feature's
/// users follow an install into its account; deleted, the answers go and the counts stay without the member's key.
@Suite("Account lifecycle: analytics-aggregator")
struct AnalyticsAccountLifecycleTests {
    @Test(
        "U5, U9 (N2, N3): poll answers and feature users follow an install into its account; deletion erases the answers and anonymises the feature users"
    )
    func mergeThenDelete() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await LifecycleAuth.run(oidc: idp, extraEnvironment: LifecycleAuth.trustingInstalls) { auth, users in
                try await AnalyticsTestHarness.run(extraEnvironment: ["ANALYTICS_USERS_TOPIC": users], tokens: auth.tokens) { analytics in
                    let install = try await auth.install("places")
                    var (status, body) = try await analytics.request(
                        .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: install.access)
                    #expect(status.code < 300, "\(body.raw ?? "")")
                    try await analytics.ingestAll([AnalyticsTestHarness.event("feature_used", user: install.id, feature: "pins")])
                    #expect(
                        try await eventually {
                            try await analytics.count(Self.featureUsers(of: install.id)) >= 1
                        })

                    let member = try await auth.signIn(idp, subject: "fay-\(UUID())", app: "places")
                    #expect(try await auth.merge(install: install, into: member.access).0 == .ok)
                    #expect(
                        try await eventually {
                            try await analytics.count("SELECT count(*)::int FROM poll_answers WHERE user_id = '\(member.id)'") == 1
                        }, "the install's answer is the account's")
                    #expect(try await analytics.count(Self.featureUsers(of: member.id)) >= 1)
                    #expect(
                        try await analytics.count("SELECT count(*)::int FROM account_pseudonyms WHERE account = '\(install.id)'") == 0,
                        "the merged install's events on the kept topic name nobody")
                    (status, _) = try await analytics.request(
                        .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": false]]], bearer: install.access)
                    #expect(status == .unauthorized)
                    #expect(try await analytics.db.columnsMentioning(install.id).isEmpty)

                    #expect(try await auth.deleteOwnAccount(bearer: member.access).0 == .noContent)
                    #expect(try await eventually { try await analytics.count("SELECT count(*)::int FROM poll_answers") == 0 })
                    #expect(
                        try await analytics.count("SELECT count(*)::int FROM feature_users WHERE user_key LIKE 'erased:%'") >= 1,
                        "the feature keeps its user count without the key")
                    (status, body) = try await analytics.request(
                        .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": false]]], bearer: member.access)
                    #expect(status == .unauthorized && body["error"]["code"].string == "invalid_token")
                    #expect(try await analytics.db.columnsMentioning(member.id).isEmpty)
                    #expect(try await analytics.count("SELECT count(*)::int FROM account_pseudonyms") == 0, "U9: no pseudonym names the account")
                }
            }
        }
    }

    /// The account's rows among a feature's users: they name it by its pseudonym (U9).
    static func featureUsers(of account: String) -> String {
        """
        SELECT count(*)::int FROM feature_users f JOIN account_pseudonyms p ON f.user_key = 'p:' || p.pseudonym
        WHERE p.account = '\(account)'
        """
    }
}
