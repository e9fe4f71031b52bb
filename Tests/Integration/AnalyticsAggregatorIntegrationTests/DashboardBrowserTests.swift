import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// The admin dashboard (N5) in a real headless Chromium (Debian's package, driven by Playwright from the
/// project's venv) against the real analytics-aggregator and auth, each on its own port: auth allows the
/// dashboard's origin by CORS, and the page talks to both from the browser. `Tests/browser/dashboard_check.py`
/// sets an invited partner's password on the reset page auth's mail links to, refuses that non-admin, logs the
/// admin in, compares the charts' numbers with the API's, watches a new install arrive over the live stream,
/// drills down from every chart (features with pagination), searches, follows the trends page's ranges and measures, changes the password and back, logs
/// out, and saves a screenshot of the home page.
@Suite("analytics dashboard in a browser (N5)", .serialized)
struct DashboardBrowserTests {
    /// Where the run keeps the home page's screenshot.
    static var screenshotPath: String {
        let directory = ProcessInfo.processInfo.environment["TEST_ARTIFACTS_DIR"] ?? FileManager.default.temporaryDirectory.path
        return URL(fileURLWithPath: directory).appendingPathComponent("dashboard-home.png").path
    }

    @Test("N5: log in, charts equal the API, live update, drill down, search, log out; screenshot saved")
    func dashboard() async throws {
        guard let python = ProcessInfo.processInfo.environment["TEST_PYTHON"] else {
            Issue.record("TEST_PYTHON is not set: run the tests with scripts/test.sh")
            return
        }
        // This run's screenshot, not one an earlier run left.
        try? FileManager.default.removeItem(atPath: Self.screenshotPath)
        let analyticsPort = freePort()
        let dashboardOrigin = "http://127.0.0.1:\(analyticsPort)"
        try await AuthTestHarness.run(
            extraEnvironment: ["DASHBOARD_ORIGINS": dashboardOrigin, "AUTH_RESET_URL": "\(dashboardOrigin)/dashboard/reset-password"]
        ) { auth in
            let authURL = "http://127.0.0.1:\(auth.client.port ?? 0)"
            // A dashboard account that is not an admin: invited as a partner, its choose-your-password link mailed.
            let (invited, _) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "teller@example.com", "role": "partner"}"#.utf8),
                bearer: try await auth.adminToken())
            #expect(invited == .created)
            let resetLink = try #require(try await waitForResetLink(in: auth.smtp, base: "\(dashboardOrigin)/dashboard/reset-password"))
            #expect(resetLink.hasPrefix("\(dashboardOrigin)/dashboard/reset-password?"))
            try await AnalyticsTestHarness.run(
                extraEnvironment: ["DASHBOARD_AUTH_URL": authURL], tokens: auth.tokens, fixedPort: analyticsPort
            ) { analytics in
                // 25 features (the drill-down shows 10 a page), installs on two platforms, cities, a poll answer.
                var events: [[String: any Sendable]] = []
                for index in 1...25 {
                    for user in 0..<(index % 7 + 1) {
                        events.append(AnalyticsTestHarness.event("feature_used", user: "user-\(user)", feature: "search-\(index)"))
                    }
                }
                events += (0..<7).map { AnalyticsTestHarness.event("install", platform: $0 % 2 == 0 ? "ios" : "android") }
                events += (0..<5).map { AnalyticsTestHarness.event("city_viewed", city: 1_609_350 + $0 % 3, cityName: "City \($0 % 3)") }
                // Two weeks before today for the trends page (N5): installs, a feature's uses and city views per day.
                var pastInstalls = 0
                for day in 1...13 {
                    let time = Date().addingTimeInterval(-Double(day) * 86_400)
                    let installs = (0..<(day % 3 + 1)).map { _ in AnalyticsTestHarness.event("install", at: time, platform: "web") }
                    pastInstalls += installs.count
                    events += installs
                    events += (0..<(day % 2 + 1)).map { _ in
                        AnalyticsTestHarness.event("feature_used", user: "user-0", at: time, feature: "search-\(day)")
                    }
                    if day % 4 != 0 { events.append(AnalyticsTestHarness.event("city_viewed", at: time, city: 1_609_350 + day % 3)) }
                }
                try await analytics.ingestAll(events)
                _ = try await analytics.request(
                    .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: try await analytics.userToken()
                )
                #expect(try await analytics.waitForDownloads(7 + pastInstalls))
                // A survey guest who rated the gym poorly and said why (N4: the reasons page).
                let guest = UUID()
                let guestToken = try await analytics.userToken(guest.uuidString)
                try await analytics.registerSurveyAccount(guest)
                #expect(try await eventually { try await analytics.request(.get, "/v1/survey", bearer: guestToken).0 == .ok })
                let rated = try await analytics.request(
                    .post, "/v1/survey/services/gym", json: ["answers": Array(repeating: "fair", count: 5)], bearer: guestToken)
                #expect(rated.0 == .created)
                let explained = try await analytics.request(
                    .post, "/v1/survey/services/gym/why", json: ["why": "Two treadmills were broken."], bearer: guestToken)
                #expect(explained.0 == .noContent)
                #expect(try await eventually { try await analytics.stats("/v1/admin/stats/survey/reasons")["total"].int == 1 })

                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = [
                    RepositoryFiles.root.appendingPathComponent("Tests/browser/dashboard_check.py").path,
                    "--dashboard", "\(dashboardOrigin)/dashboard/", "--api", dashboardOrigin,
                    "--email", "admin@example.com", "--password", "Start1234", "--app-key", AnalyticsTestHarness.weatherKey,
                    "--screenshot", Self.screenshotPath, "--search-prefix", "search-1", "--new-password", "Changed5678",
                    "--auth", authURL, "--reset-link", resetLink, "--non-admin-email", "teller@example.com",
                    "--non-admin-password", "Fortune123",
                ]
                let output = try await process.runCollectingOutput()
                #expect(output.status == 0, "\(output.text)")
                let lines = output.text.split(separator: "\n").map(String.init)
                for step in [
                    "wrong-password", "reset-link", "non-admin-refused", "admin-home-charts", "numbers-match-api", "screenshot", "live-update",
                    "drill-down", "search",
                    "drill-downs", "trends", "change-password", "logout", "no-page-errors",
                ] {
                    #expect(lines.contains { $0 == "ok \(step)" || $0.hasPrefix("ok \(step) ") }, "step \(step): \(output.text)")
                }
                #expect(FileManager.default.fileExists(atPath: Self.screenshotPath))
            }
        }
    }
}
