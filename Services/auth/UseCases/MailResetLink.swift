import Foundation

/// Forgot-password (U3): a dashboard account's reset link is mailed once the request passes
/// `RequestRecoveryMail`'s checks and limits; its refusals are the caller's to answer.
package struct MailResetLink: Sendable {
    package let recovery: RequestRecoveryMail
    package let links: any ResetLinkMails
    /// The reset page the link opens (`AUTH_RESET_URL`).
    package let linkBase: String

    package init(recovery: RequestRecoveryMail, links: any ResetLinkMails, linkBase: String) {
        self.recovery = recovery
        self.links = links
        self.linkBase = linkBase
    }

    package func run(email text: String?, clientKey: String) async throws {
        let (account, email) = try await recovery.account(email: text, kind: .dashboard, clientKey: clientKey)
        try await links.request(for: account, email: email, linkBase: linkBase)
    }
}
