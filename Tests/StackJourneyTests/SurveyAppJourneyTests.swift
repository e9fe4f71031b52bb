import AnalyticsContract
import AuthContract
import Foundation
import PlatformClient
import TestSupport
import Testing

extension StackJourneys {
    /// The hotel survey app's journey through the running stack (X5; U4, N4, N2), with the generated clients
    /// only: sign-up with a PIN and the mailed confirmation code, three wrong PINs, a new PIN by mailed code, the four
    /// services and the overall rating, the coupon, and the dashboard's survey table read by the first admin.
    @Suite("App journey through the stack: hotel survey")
    struct SurveyAppJourneyTests {
        @Test("sign up with PIN → wrong PIN three times → forgot PIN by mail → four services → coupon → dashboard table")
        func surveyApp() async throws {
            let report = JourneyReport(app: "survey")
            defer { report.finish() }
            let smtp = try JourneyProviders.current.mailSink()
            try await RunningStack.run(settings: try JourneyPeople.settings(smtp: smtp)) { stack in
                try await journey(stack, smtp: smtp, report: report)
            }
        }

        func journey(_ stack: RunningStack, smtp: SMTPSink, report: JourneyReport) async throws {
            let (app, auth) = PlatformClients.signIn(addresses: stack.addresses, store: MemoryTokenStore())
            let email = "guest-\(uniqueSuffix())@hotel.test"
            // A running stack holds earlier runs' surveys: the table is compared with this.
            let dashboard = try await report.step("the first admin logs in to the dashboard") { try await JourneyPeople.admin(stack) }
            let before = try await dashboard.analytics.getSurveyStats().ok.body.json

            try await report.step("sign up with a PIN") {
                _ = try await auth.signUpSurvey(body: .json(.init(email: email, pin: "ab12", pinConfirmation: "ab12"))).created
            }
            try await report.step("confirm the address with the mailed code") {
                let code = try await smtp.code(after: "Your confirmation code is ", inMailTo: email)
                _ = try await auth.verifyEmail(body: .json(.init(email: email, code: code))).ok
            }
            try await report.step("a wrong PIN three times, then even the right one waits for a reset") {
                for attemptsLeft in [2, 1] {
                    let refused = try await auth.loginSurvey(body: .json(.init(email: email, pin: "zz99"))).unauthorized.body.json
                    try #require(
                        refused.error.code == "wrong_pin" && refused.error.details?.additionalProperties["attemptsLeft"] == "\(attemptsLeft)")
                }
                let third = try await auth.loginSurvey(body: .json(.init(email: email, pin: "zz99"))).forbidden.body.json
                try #require(third.error.code == "pin_tries_exhausted", "the third wrong PIN uses the last try")
                let exhausted = try await auth.loginSurvey(body: .json(.init(email: email, pin: "ab12"))).forbidden.body.json
                try #require(exhausted.error.code == "pin_tries_exhausted")
            }
            try await report.step("forgot PIN: a new one with the mailed code") {
                _ = try await auth.startForgotPin(body: .json(.init(email: email))).accepted
                let code = try await smtp.code(after: "Your PIN reset code is ", inMailTo: email)
                _ = try await auth.finishForgotPin(body: .json(.init(email: email, code: code, pin: "cd34", pinConfirmation: "cd34"))).ok
            }
            try await report.step("log in with the new PIN") {
                try await app.session.adopt(try await auth.loginSurvey(body: .json(.init(email: email, pin: "cd34"))).ok.body.json)
            }

            try await report.step("rate the four services (one below good, with why)") {
                let survey = try await app.analytics.getSurvey().ok.body.json
                try #require(survey.services.map(\.id) == [.rooms, .dining, .spaPool, .gym])
                for service in survey.services {
                    let rating: AnalyticsContract.Components.Schemas.Rating = service.id == .dining ? .fair : .excellent
                    let result = try await app.analytics.submitService(
                        path: .init(service: service.id), body: .json(.init(answers: Array(repeating: rating, count: 5)))
                    ).created.body.json
                    try #require(result.askWhy == (service.id == .dining))
                    if result.askWhy {
                        _ = try await app.analytics.explainService(path: .init(service: service.id), body: .json(.init(why: "Cold soup"))).noContent
                    }
                }
            }
            let coupon = try await report.step("the overall rating earns the coupon") {
                let overall = try await app.analytics.submitOverall(body: .json(.init())).created.body.json
                try #require(overall.couponStatus == .issued)
                return try #require(overall.couponCode)
            }
            try #require(!coupon.isEmpty)

            let stats = try await report.eventually("the dashboard's survey table counts the submission and the coupon") {
                let stats = try await dashboard.analytics.getSurveyStats().ok.body.json
                return stats.overall.submissions == before.overall.submissions + 1 ? stats : nil
            }
            let diningBelowGood = before.services.first { $0.service == .dining }?.belowGood ?? 0
            try #require(stats.overall.coupons == before.overall.coupons + 1)
            try #require(stats.services.first { $0.service == .dining }?.belowGood == diningBelowGood + 1)
            // Rated excellent by every run: 100 points however many runs a running stack has seen.
            try #require(stats.services.first { $0.service == .rooms }?.averagePoints == 100)
        }
    }
}
