import Foundation

/// Accounts for app installs and horoscope guests (issue 29, U5): each is a real account, their number bounded per
/// client address and for everyone together; a guest is refused while its address is locked out of logins.
struct OpenInstallAccount: Sendable {
    let installs: any InstallAccounts
    let tries: TryLedger
    let limits: Limits

    struct Limits: Sendable {
        /// Install accounts per client address (`INSTALLS_PER_ADDRESS`).
        let installsPerAddress: AttemptLimit
        /// Guests per client address (`GUESTS_PER_ADDRESS`).
        let guestsPerAddress: AttemptLimit
        /// Install accounts of everyone together (`INSTALLS_PER_HOUR`).
        let everyone: AttemptLimit
        /// Failed logins per client address: a guest's address must not be locked.
        let address: AttemptLimit
    }

    func install(app: InstallApp, installId: String, clientKey: String) async throws -> Account {
        try await open(app: app, installId: installId, addressTries: .installAccount, clientKey: clientKey, limit: limits.installsPerAddress)
    }

    /// The horoscope app's "continue as guest": an install account without an install id.
    func guest(clientKey: String) async throws -> Account {
        try await tries.checkNotLocked(.address, subject: clientKey, limit: limits.address)
        return try await open(app: .horoscope, installId: "guest", addressTries: .guestSession, clientKey: clientKey, limit: limits.guestsPerAddress)
    }

    /// The address's try is kept: it counts accounts made, not failures.
    private func open(app: InstallApp, installId: String, addressTries: AttemptKind, clientKey: String, limit: AttemptLimit) async throws -> Account {
        let addressTry = try await tries.take(addressTries, subject: clientKey, limit: limit)
        _ = try await tries.givingBack([addressTry]) {
            try await tries.take(.installAccount, subject: "all", limit: limits.everyone)
        }
        return try await installs.createInstall(app: app, installId: installId)
    }
}
