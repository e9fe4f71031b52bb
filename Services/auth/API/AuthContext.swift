import Foundation
import Logging
import PlatformCore
import PlatformHTTP

/// Everything the auth operations use, built once in `buildApplication`.
struct AuthContext: Sendable {
    let configuration: AuthConfiguration
    let accounts: AccountStore
    let attempts: AttemptStore
    let sessions: SessionStore
    let resets: PasswordResetStore
    let pinResets: PinResetStore
    let emailVerifications: EmailVerificationStore
    let hasher: PasswordHasher
    let issuer: TokenIssuer
    /// Where installs' attestations are checked (`PLAY_INTEGRITY_*`); nil when none is configured.
    var attestations: (any InstallAttesting)? = nil

    /// A new session for `account`, with `user.logged-in` published.
    func startSession(for account: Account, next: FlowStep? = nil) async throws -> Components.Schemas.Session {
        let refreshToken = try await OpenSession(sessions: sessions, logins: accounts).run(for: account)
        return try await session(for: account, refreshToken: refreshToken, next: next)
    }

    /// The session answer for `account` with a refresh token already stored.
    func session(for account: Account, refreshToken: String, next: FlowStep? = nil) async throws -> Components.Schemas.Session {
        Components.Schemas.Session(
            accessToken: try await issuer.accessToken(for: account), refreshToken: refreshToken, tokenType: .bearer,
            expiresIn: issuer.accessTokenLifetime.rounded(.towardZero).roundedClampedInt, account: .init(account),
            next: next.map(Components.Schemas.FlowStep.init))
    }

    /// The try limits over this service's attempt store.
    var tries: TryLedger { TryLedger(attempts: attempts) }

    var dashboardLogin: DashboardLogin {
        DashboardLogin(
            accounts: accounts, tries: tries, hasher: hasher,
            limits: .init(address: configuration.addressLimit, owner: configuration.accountLimit, ceiling: configuration.accountCeiling))
    }

    var changeDashboardPassword: ChangeDashboardPassword {
        ChangeDashboardPassword(accounts: accounts, tries: tries, hasher: hasher, limit: configuration.accountLimit)
    }

    var resetPassword: ResetPassword {
        ResetPassword(resets: resets, tries: tries, hasher: hasher, addressLimit: configuration.addressLimit)
    }

    /// Invited accounts made with their choose-your-password link in one transaction.
    var invitations: PostgresInvitations {
        PostgresInvitations(accounts: accounts, resets: resets, linkBase: configuration.resetLinkBaseURL)
    }

    /// The tries a mailed code's check takes (forgot-PIN, email confirmation).
    var codeChecks: LimitedCodeCheck { LimitedCodeCheck(tries: tries, address: configuration.addressLimit, budget: configuration.codeChecks) }

    var installAccounts: OpenInstallAccount {
        OpenInstallAccount(
            installs: accounts, tries: tries,
            limits: .init(
                installsPerAddress: configuration.installsPerAddress, guestsPerAddress: configuration.guestsPerAddress,
                perNetwork: configuration.installsPerNetwork, perSite: configuration.installsPerSite, address: configuration.addressLimit),
            attestations: attestations)
    }

    var refreshSession: RefreshSession { RefreshSession(tokens: sessions, accounts: accounts) }

    func externalLogin(_ verifier: any IDTokenVerifying) -> ExternalLogin {
        ExternalLogin(verifier: verifier, identities: accounts, tries: tries, addressLimit: configuration.addressLimit)
    }

    func endAccount(_ ends: any AccountEnds) -> EndAccount {
        EndAccount(
            accounts: accounts, ends: ends, tries: tries, hasher: hasher,
            limits: .init(
                passwordCeiling: configuration.accountCeiling, pinCeiling: configuration.pinAccountCeiling,
                installDeletionsPerAddress: configuration.installDeletionsPerAddress))
    }

    var recoveryMail: RequestRecoveryMail {
        RequestRecoveryMail(
            accounts: accounts, tries: tries,
            limits: .init(
                address: configuration.addressLimit, mailsPerAddress: configuration.recoveryMailsPerAddress,
                mailsPerAccount: configuration.recoveryMailsPerAccount))
    }
}
