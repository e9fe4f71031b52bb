import Foundation
import HTTPTypes
import PlatformHTTP
import Testing

@testable import Auth

/// Where auth's domain outcomes become HTTP answers (`AuthErrors.answering`): the seed's messages, codes and
/// statuses, checked without a server.
@Suite("auth: domain refusals as HTTP errors")
struct AuthErrorAnswerTests {
    @Test("U1: the login's refusals carry the seed's exact messages")
    func loginMessages() async {
        let invalid = await answer(DashboardLogin.Refusal.invalidEmail)
        #expect(invalid?.status == .unprocessableContent && invalid?.message == "you entered an invalid email, Please try again")
        let unknown = await answer(DashboardLogin.Refusal.notRegistered)
        #expect(unknown?.status == .unauthorized && unknown?.message == "you entered not registered email, Please try again")
        let wrong = await answer(DashboardLogin.Refusal.wrongPassword(attemptsLeft: 4))
        #expect(wrong?.status == .unauthorized && wrong?.message == "you entered invalid password, Please try again")
        #expect(wrong?.details?["attemptsLeft"] == "4")
        #expect(await answer(DashboardLogin.Refusal.emptyField)?.code == "empty_field")
        #expect(await answer(DashboardLogin.Refusal.banned)?.status == .forbidden)
    }

    @Test("U3: the change-password refusals")
    func changeMessages() async {
        let mismatch = await answer(ChangeDashboardPassword.Refusal.confirmationMismatch)
        #expect(mismatch?.status == .unprocessableContent && mismatch?.message == "the password and confirm password don't match")
        #expect(await answer(ChangeDashboardPassword.Refusal.weakPassword)?.code == "weak_password")
        #expect(await answer(ChangeDashboardPassword.Refusal.wrongCurrentPassword)?.code == "wrong_current_password")
        #expect(await answer(ChangeDashboardPassword.Refusal.notDashboardAccount)?.status == .forbidden)
    }

    @Test("U4: the survey login's refusals name the app's next step")
    func surveyAnswers() async {
        let unknown = await answer(SurveyLogin.Refusal.notRegistered)
        #expect(unknown?.status == .notFound && unknown?.details?["next"] == "sign_up")
        let wrong = await answer(SurveyLogin.Refusal.wrongPin(attemptsLeft: 2))
        #expect(wrong?.status == .unauthorized && wrong?.details?["next"] == "retry" && wrong?.details?["attemptsLeft"] == "2")
        let exhausted = await answer(SurveyLogin.Refusal.pinTriesExhausted)
        #expect(exhausted?.status == .forbidden && exhausted?.code == "pin_tries_exhausted" && exhausted?.details?["next"] == "forgot_pin")
    }

    @Test("U7: used-up tries are 429 too_many_attempts with Retry-After; a full bcrypt pool is 429 busy")
    func limits() async {
        let exhausted = await answer(TryLedger.Exhausted(until: Date().addingTimeInterval(90.2)))
        #expect(exhausted?.status == .tooManyRequests && exhausted?.code == "too_many_attempts")
        #expect(["90", "91"].contains(exhausted?.headers[.retryAfter] ?? ""))
        let busy = await answer(PasswordHasher.Busy())
        #expect(busy?.code == "busy" && busy?.headers[.retryAfter] == "1")
    }
}
