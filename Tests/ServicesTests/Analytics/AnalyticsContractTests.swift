import Foundation
import PlatformHTTP
import TestSupport
import Testing

@testable import AnalyticsAggregator

/// analytics-aggregator against its own document (X3): Schemathesis anonymously (with
/// an app key for the ingest), as a survey account and as an admin, every check on.
@Suite("analytics-aggregator: API contract", .serialized)
struct AnalyticsContractTests {
    @Test("X3: Schemathesis finds no failure anonymously, as a survey account and as an admin", arguments: [nil, UserRole.user, .admin])
    func fuzzed(role: UserRole?) async throws {
        try await AnalyticsTestHarness.run { harness in
            // Something to find: telemetry aggregated, a poll answer, a rated service.
            try await harness.ingestAll([
                AnalyticsTestHarness.event("install"), AnalyticsTestHarness.event("feature_used", feature: "radar"),
                AnalyticsTestHarness.event("city_viewed", city: 1_609_350),
            ])
            #expect(try await harness.waitForDownloads(1))
            var token: String?
            switch role {
            case .user?:
                let user = UUID()
                try await harness.registerSurveyAccount(user)
                let userToken = try await harness.userToken(user.uuidString)
                #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: userToken).0 == .ok })
                token = userToken
            case let role?: token = try await harness.tokens.token(userId: UUID().uuidString, role: role)
            case nil: token = nil
            }
            let outcome = try await Schemathesis.run(
                baseURL: "http://127.0.0.1:\(harness.port)", bearer: token, headers: ["X-App-Key": AnalyticsTestHarness.weatherKey],
                excludedPaths: ["/v1/admin/stream"])
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
