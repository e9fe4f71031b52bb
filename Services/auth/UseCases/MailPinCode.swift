import Foundation

/// Forgot-PIN, step 1 (U4): a survey account's reset code is mailed once the request passes
/// `RequestRecoveryMail`'s checks and limits; its refusals are the caller's to answer.
package struct MailPinCode: Sendable {
    package let recovery: RequestRecoveryMail
    package let codes: any PinCodeMails

    package init(recovery: RequestRecoveryMail, codes: any PinCodeMails) {
        self.recovery = recovery
        self.codes = codes
    }

    /// The address the code went to.
    package func run(email text: String?, clientKey: String) async throws -> EmailAddress {
        let (account, email) = try await recovery.account(email: text, kind: .survey, clientKey: clientKey)
        try await codes.start(for: account, email: email)
        return email
    }
}
