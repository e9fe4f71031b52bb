import Foundation
import PlatformHTTP

/// Confirming a survey account's email address with a mailed code (N4): the coupon the hotel survey
/// gives is issued only to confirmed addresses, so accounts made up by the hundred earn nothing.
extension AuthAPI {
    func startEmailVerification(
        _ input: Operations.StartEmailVerification.Input
    ) async throws -> Operations.StartEmailVerification.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let start = StartEmailConfirmation(
            accounts: auth.accounts, verifications: auth.emailVerifications, tries: auth.tries,
            mailsPerAddress: auth.configuration.recoveryMailsPerAddress, mailsPerAccount: survey.verificationMails)
        let email = try await start.run(email: body.email, clientKey: RequestScope.clientKey)
        return .accepted(.message("a confirmation code was sent to your email", email: email.value))
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let verify = VerifyEmail(
            accounts: auth.accounts, verifications: auth.emailVerifications, codes: auth.codeChecks, limit: survey.verifyEmail)
        let email = try await verify.run(email: body.email, code: body.code, clientKey: RequestScope.clientKey)
        return .ok(.message("your email address is confirmed", email: email.value))
    }
}
