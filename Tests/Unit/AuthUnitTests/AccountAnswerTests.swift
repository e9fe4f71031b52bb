import Foundation
import HTTPTypes
import PlatformHTTP
import Testing

@testable import Auth

/// The admin, payment, profile, logout and merge refusals as HTTP errors (`AuthErrors.answering`): the statuses,
/// codes and messages the routes answered before their rules moved into use cases.
@Suite("auth: account refusals as HTTP errors")
struct AccountAnswerTests {
    @Test("U5, U6: an unknown account is 404 not_found for every admin write and the payment webhook")
    func unknownAccount() async {
        let unknown = await answer(AccountRefusal.unknownAccount)
        #expect(unknown?.status == .notFound && unknown?.code == "not_found" && unknown?.message == "no such account")
    }

    @Test("U9: the profile's refusals are field-keyed 422s; a gone account is 404 account_not_found")
    func profileAnswers() async {
        let blank = await answer(UpdateProfile.Refusal.blankDisplayName)
        #expect(blank?.status == .unprocessableContent && blank?.code == "validation_failed")
        #expect(blank?.details == ["displayName": "must not be blank"])
        let zone = await answer(UpdateProfile.Refusal.unknownTimeZone)
        #expect(zone?.details == ["timeZone": "must be an IANA time zone such as Asia/Bangkok"])
        let gone = await answer(UpdateProfile.Refusal.noAccount)
        #expect(gone?.status == .notFound && gone?.code == "account_not_found" && gone?.message == "this account no longer exists")
    }

    @Test("U1, U9: logout without a session is 404; a merge's refusals keep their codes")
    func sessionAndMergeAnswers() async {
        let noSession = await answer(EndSession.Refusal.noSession)
        #expect(noSession?.status == .notFound && noSession?.code == "session_not_found")
        #expect(noSession?.message == "no open session for this refresh token")
        let invalid = await answer(MergeInstallAccount.Refusal.invalidToken)
        #expect(invalid?.status == .unauthorized && invalid?.code == "invalid_refresh_token")
        #expect(invalid?.message == "the install's refresh token is unknown, ended or expired")
        let notInstall = await answer(MergeInstallAccount.Refusal.notAnInstall)
        #expect(notInstall?.status == .conflict && notInstall?.code == "not_an_install")
        #expect(await answer(MergeInstallAccount.Refusal.noAccount)?.code == "account_not_found")
    }
}
