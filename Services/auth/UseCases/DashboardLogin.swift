import Foundation

/// An admin dashboard login (U1, U7): the seed's checks in its order, with the try limits taken before the
/// password is checked, so a burst of parallel guesses evaluates no more passwords than the limits allow.
package struct DashboardLogin: Sendable {
    package let accounts: any CredentialRepository
    package let tries: TryLedger
    package let hasher: any SecretHashing
    package let limits: Limits

    package init(accounts: any CredentialRepository, tries: TryLedger, hasher: any SecretHashing, limits: Limits) {
        self.accounts = accounts
        self.tries = tries
        self.hasher = hasher
        self.limits = limits
    }

    package struct Limits: Sendable {
        /// Failed logins of any kind per client address.
        package let address: AttemptLimit
        /// Wrong passwords per account and client address.
        package let owner: AttemptLimit
        /// Wrong passwords per account from every address together.
        package let ceiling: AttemptLimit

        package init(address: AttemptLimit, owner: AttemptLimit, ceiling: AttemptLimit) {
            self.address = address
            self.owner = owner
            self.ceiling = ceiling
        }
    }

    /// Why a login was refused, in the seed's terms; `TryLedger.Exhausted` when the caller must wait.
    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail
        case notRegistered
        case wrongPassword(attemptsLeft: Int)
        case banned
    }

    /// The account signed in; `clientKey` is the caller's address as the limits key it.
    package func run(email: String?, password: String?, clientKey: String) async throws -> Account {
        guard let emailText = nonEmpty(email), let password = nonEmpty(password) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else { throw Refusal.invalidEmail }
        let addressTry = try await tries.take(.address, subject: clientKey, limit: limits.address)
        guard let stored = try await accounts.credentials(email: email), stored.account.kind == .dashboard,
            let hash = stored.passwordHash
        else { throw Refusal.notRegistered }
        let account = stored.account
        let ownTries = AttemptSubject.ownerAndAddress(account.id, address: clientKey)
        let secrets = LimitedSecretCheck(tries: tries, hasher: hasher, ceiling: limits.ceiling)
        let left: Int?
        do {
            left = try await secrets.check(
                password, against: hash, account: account.id, addressTry: addressTry, kind: .dashboardPassword,
                subject: ownTries, limit: limits.owner)
        } catch let usedUp as LimitedSecretCheck.OwnTriesUsedUp {
            throw TryLedger.Exhausted(until: usedUp.until)
        }
        if let left { throw Refusal.wrongPassword(attemptsLeft: left) }
        guard !account.banned else { throw Refusal.banned }
        try await tries.attempts.clear(.dashboardPassword, subject: ownTries)
        return account
    }
}
