import Foundation
import PlatformCore
import PlatformEvents

/// Accounts for app installs and horoscope guests (U5): each is a real account, their number bounded per client
/// address and per network (an IPv4 /24, an IPv6 /56 and /48). There is no cap for everyone together: a few hundred
/// addresses could use it up and leave no real new install an account for the rest of the hour. A guest is refused
/// while its address is locked out of logins. An install may send an attestation (`InstallAttestation`): it is checked
/// after the limits' tries are taken, which it keeps when refused (each check is a call to the provider, whose quota
/// is everyone's), and its account is recorded as attested, which `InstallTrust` trusts at once.
package struct OpenInstallAccount: Sendable {
    package let installs: any InstallAccounts
    package let tries: TryLedger
    package let limits: Limits
    /// Where attestations are checked; nil: an install that sends one is refused (`AttestationRefusal.notConfigured`).
    package var attestations: (any InstallAttesting)? = nil

    package init(installs: any InstallAccounts, tries: TryLedger, limits: Limits, attestations: (any InstallAttesting)? = nil) {
        self.installs = installs
        self.tries = tries
        self.limits = limits
        self.attestations = attestations
    }

    package struct Limits: Sendable {
        /// Install accounts per client address (`INSTALLS_PER_ADDRESS`).
        package let installsPerAddress: AttemptLimit
        /// Guests per client address (`GUESTS_PER_ADDRESS`).
        package let guestsPerAddress: AttemptLimit
        /// Install and guest accounts per IPv4 /24 or IPv6 /56 (`INSTALLS_PER_NETWORK`).
        package let perNetwork: AttemptLimit
        /// Install and guest accounts per IPv6 /48 (`INSTALLS_PER_SITE`).
        package let perSite: AttemptLimit
        /// Failed logins per client address: a guest's address must not be locked.
        package let address: AttemptLimit

        package init(
            installsPerAddress: AttemptLimit, guestsPerAddress: AttemptLimit, perNetwork: AttemptLimit, perSite: AttemptLimit, address: AttemptLimit
        ) {
            self.installsPerAddress = installsPerAddress
            self.guestsPerAddress = guestsPerAddress
            self.perNetwork = perNetwork
            self.perSite = perSite
            self.address = address
        }
    }

    package func install(
        app: InstallApp, installId: String, attestation: InstallAttestation? = nil, clientKey: String, networks: ClientNetworks, now: Date = Date()
    ) async throws -> Account {
        if attestation != nil, attestations == nil { throw AttestationRefusal.notConfigured }
        return try await open(
            app: app, installId: installId, addressTries: .installAccount, clientKey: clientKey, networks: networks,
            limit: limits.installsPerAddress, attestation: attestation, now: now)
    }

    /// The horoscope app's "continue as guest": an install account without an install id.
    package func guest(clientKey: String, networks: ClientNetworks) async throws -> Account {
        try await tries.checkNotLocked(.address, subject: clientKey, limit: limits.address)
        return try await open(
            app: .horoscope, installId: "guest", addressTries: .guestSession, clientKey: clientKey, networks: networks,
            limit: limits.guestsPerAddress)
    }

    /// The tries are kept: they count accounts made, not failures. A refusal gives back what it took before.
    private func open(
        app: InstallApp, installId: String, addressTries: AttemptKind, clientKey: String, networks: ClientNetworks, limit: AttemptLimit,
        attestation: InstallAttestation? = nil, now: Date = Date()
    ) async throws -> Account {
        var taken = [try await tries.take(addressTries, subject: clientKey, limit: limit)]
        // Subjects apart from the addresses': an address that is no IP address is its own network too.
        taken.append(
            try await tries.givingBack(taken) {
                try await tries.take(.installAccount, subject: "network \(networks.network)", limit: limits.perNetwork)
            })
        if let site = networks.site {
            taken.append(
                try await tries.givingBack(taken) { try await tries.take(.installAccount, subject: "site \(site)", limit: limits.perSite) })
        }
        guard let attestation, let attestations else { return try await installs.createInstall(app: app, installId: installId) }
        let attested = try await attestations.verify(attestation, app: app, installId: installId, now: now)
        guard let account = try await installs.createInstall(app: app, installId: installId, attested: attested) else {
            throw AttestationRefusal.reused
        }
        return account
    }
}
