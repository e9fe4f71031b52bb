import AppointmentsContract
import AuthContract
import Foundation
import PlatformClient
import TestSupport
import Testing

extension StackJourneys {
    /// The admin dashboard's people through the running stack (X5; U1, U2, U5, B1, N2), with the generated
    /// clients only: the first admin invites a fortune teller and another admin, each chooses a password through the
    /// mailed link and signs in; the teller's account reaches appointment-booker over the broker and gets a profile.
    /// The dashboard page itself stays with the browser test.
    @Suite("App journey through the stack: dashboard")
    struct DashboardJourneyTests {
        @Test("the first admin invites a partner and an admin; each sets a password by mail link and signs in")
        func dashboard() async throws {
            let report = JourneyReport(app: "dashboard")
            defer { report.finish() }
            let smtp = try JourneyProviders.current.mailSink()
            try await RunningStack.run(settings: try JourneyPeople.settings(smtp: smtp)) { stack in
                try await journey(stack, smtp: smtp, report: report)
            }
        }

        func journey(_ stack: RunningStack, smtp: SMTPSink, report: JourneyReport) async throws {
            let admin = try await report.step("the first admin signs in") { try await JourneyPeople.admin(stack) }
            let teller = "teller-\(uniqueSuffix())@journey.test"
            let colleague = "colleague-\(uniqueSuffix())@journey.test"
            let tellerId = try await report.step("invite a fortune teller and an admin") {
                let invited = try await admin.auth.inviteAccount(body: .json(.init(email: teller, role: .partner))).created.body.json
                _ = try await admin.auth.inviteAccount(body: .json(.init(email: colleague, role: .admin))).created
                return invited.accountId
            }

            for (email, password) in [(teller, "tarot-Cards-42"), (colleague, "numbers-Stats-42")] {
                try await report.step("\(email.prefix(while: { $0 != "-" })): the mailed link sets the password") {
                    try await JourneyPeople.activate(stack, email: email, password: password, smtp: smtp)
                }
            }

            let partner = try await report.step("the teller signs in") {
                try await JourneyPeople.signIn(stack, email: teller, password: "tarot-Cards-42")
            }
            try await report.eventually("appointment-booker learned the partner from auth's event: the admin adds the profile") {
                try await JourneyPeople.addPartnerProfile(admin: admin, accountId: tellerId)
            }
            try await report.step("the teller sees the profile, not yet approved") {
                let profile = try await partner.appointments.getMyPartnerProfile().ok.body.json
                try #require(profile.name == "Madame Journey" && profile.approved == false)
            }

            let second = try await report.step("the invited admin signs in") {
                try await JourneyPeople.signIn(stack, email: colleague, password: "numbers-Stats-42")
            }
            try await report.step("the invited admin finds the teller and reads the dashboard's home numbers") {
                let found = try await second.auth.searchAccounts(query: .init(query: teller)).ok.body.json
                try #require(found.accounts.map(\.id) == [tellerId] && found.accounts.first?.role == .partner)
                _ = try await second.analytics.getHomeStats().ok
            }
            try await report.step("a partner is not an admin") {
                guard case .forbidden = try await partner.auth.searchAccounts() else {
                    throw StackError(description: "the teller must not list accounts")
                }
            }
        }
    }
}
