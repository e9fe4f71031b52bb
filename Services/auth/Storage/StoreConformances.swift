import AuthCore
import Foundation

/// The Postgres stores behind the use cases' protocols.
extension AdminStore: AccountAdministration, PaymentLedger {}
extension AccountStore: Profiles {}
extension AccountStore: CredentialRepository {}
extension PasswordResetStore: PasswordResets, ResetLinkMails {}
extension PinResetStore: PinResets, PinCodeMails {}
extension EmailVerificationStore: EmailVerifications {}
extension AccountStore: InstallAccounts, ExternalIdentities, LoginRecords {}
extension SessionStore: RefreshTokens, SessionEnds, SessionStarts {}
extension AccountEndStore: AccountEnds, InstallMerges {}
