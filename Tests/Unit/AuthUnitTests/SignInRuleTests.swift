import Foundation
import PlatformCore
import PlatformEvents
import Testing

@testable import Auth

/// The rules of install and guest accounts, session renewal, OpenID Connect login, an account's end and a
/// payment's effect (U1, U5, U6, U7, U8) over memory stores. The integration tests keep the HTTP answers,
/// the real provider's keys and the transactions.
@Suite("auth: sign-in, session and account-end rules")
struct SignInRuleTests {
    let credentials = MemoryCredentials()
    let attempts = MemoryAttempts()
    var signIns: MemorySignIns { MemorySignIns(credentials: credentials) }
    var tries: TryLedger { TryLedger(attempts: attempts, now: { [attempts] in attempts.now }) }

    static func limit(_ failures: Int) -> AttemptLimit { AttemptLimit(maxFailures: failures, window: 3_600) }

    func refusal(_ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    static func networks(_ network: String, site: String? = nil) -> ClientNetworks { ClientNetworks(network: network, site: site) }

    @Test("U5: installs are bounded per address and per network; a guest needs an address not locked out")
    func installLimits() async throws {
        let open = OpenInstallAccount(
            installs: signIns, tries: tries,
            limits: .init(
                installsPerAddress: Self.limit(2), guestsPerAddress: Self.limit(1), perNetwork: Self.limit(4), perSite: Self.limit(5),
                address: Self.limit(3)))
        let net = Self.networks("10.0.0.0/24")
        _ = try await open.install(app: .weather, installId: "a", clientKey: "10.0.0.1", networks: net)
        _ = try await open.install(app: .places, installId: "b", clientKey: "10.0.0.1", networks: net)
        #expect(
            await refusal { _ = try await open.install(app: .weather, installId: "c", clientKey: "10.0.0.1", networks: net) }
                is TryLedger.Exhausted)
        _ = try await open.guest(clientKey: "10.0.0.2", networks: net)
        #expect(await refusal { _ = try await open.guest(clientKey: "10.0.0.2", networks: net) } is TryLedger.Exhausted, "one guest per address")
        _ = try await open.install(app: .weather, installId: "d", clientKey: "10.0.0.3", networks: net)
        // Four accounts made in the network: the fifth is refused, and the address's try it took is given back.
        #expect(
            await refusal { _ = try await open.install(app: .weather, installId: "e", clientKey: "10.0.0.4", networks: net) }
                is TryLedger.Exhausted)
        #expect(attempts.count(.installAccount, subject: "10.0.0.4") == 0)
        // Another network is not touched by this one's: no cap for everyone.
        _ = try await open.install(app: .weather, installId: "f", clientKey: "10.0.1.4", networks: Self.networks("10.0.1.0/24"))
        // An IPv6 site's /56s share its five; the network's try is given back when the site refuses.
        for index in 0..<5 {
            _ = try await open.install(
                app: .weather, installId: "v6-\(index)", clientKey: "2001:db8:0:\(index)00::/64",
                networks: Self.networks("2001:db8:0:\(index)00::/56", site: "2001:db8::/48"))
        }
        #expect(
            await refusal {
                _ = try await open.install(
                    app: .weather, installId: "v6-5", clientKey: "2001:db8:0:500::/64",
                    networks: Self.networks("2001:db8:0:500::/56", site: "2001:db8::/48"))
            } is TryLedger.Exhausted)
        #expect(attempts.count(.installAccount, subject: "network 2001:db8:0:500::/56") == 0)
        // Three failed logins lock the address: no guest from it, and no try taken.
        for _ in 0..<3 { _ = try await tries.take(.address, subject: "10.0.0.5", limit: Self.limit(3)) }
        #expect(await refusal { _ = try await open.guest(clientKey: "10.0.0.5", networks: net) } is TryLedger.Exhausted)
        #expect(attempts.count(.guestSession, subject: "10.0.0.5") == 0)
    }

    @Test("U7: a refresh token renews once, its reuse is told, a banned account gets no new tokens")
    func refreshU7() async throws {
        let signIns = signIns
        let refresh = RefreshSession(tokens: signIns, accounts: credentials)
        let account = try await signIns.createInstall(app: .weather, installId: "x")
        signIns.addRefreshToken("first", for: account.id)
        let renewed = try await refresh.run(refreshToken: "first")
        #expect(renewed.account.id == account.id && renewed.refreshToken != "first")
        await #expect(throws: RefreshSession.Refusal.reused) { _ = try await refresh.run(refreshToken: "first") }
        for token in [nil, "", "  ", "unknown", String(repeating: "a", count: 129)] {
            await #expect(throws: RefreshSession.Refusal.invalidToken) { _ = try await refresh.run(refreshToken: token) }
        }
        credentials.setBanned(account.id)
        await #expect(throws: RefreshSession.Refusal.banned) { _ = try await refresh.run(refreshToken: renewed.refreshToken) }
    }

    @Test("U5: an ID token logs in once per nonce, an unreachable provider costs no try, a bad token does")
    func externalLogin() async throws {
        let signIns = signIns
        let identity = VerifiedIdentity(issuer: "https://id.example", subject: "s1", expires: .distantFuture, name: "Ann\u{0}", app: .horoscope)
        let login = ExternalLogin(
            verifier: ScriptedVerifier(verdicts: ["good": .success(identity), "down": .failure(.providerUnreachable)]),
            identities: signIns, tries: tries, addressLimit: Self.limit(2))
        let first = try await login.run(idToken: "good", nonce: "n1", clientKey: "a")
        #expect(try await login.run(idToken: "good", nonce: "n2", clientKey: "a").id == first.id, "the identity's own account")
        await #expect(throws: ExternalLogin.Refusal.invalidToken) { _ = try await login.run(idToken: "good", nonce: "n1", clientKey: "a") }
        #expect(
            await refusal { _ = try await login.run(idToken: "down", nonce: nil, clientKey: "b") } as? ExternalLogin.Refusal == .providerUnreachable)
        #expect(attempts.count(.address, subject: "b") == 0)
        // The replayed nonce above kept its try: one more bad token uses up the address.
        await #expect(throws: ExternalLogin.Refusal.invalidToken) { _ = try await login.run(idToken: "forged", nonce: nil, clientKey: "a") }
        #expect(await refusal { _ = try await login.run(idToken: "good", nonce: "n3", clientKey: "a") } is TryLedger.Exhausted)
        credentials.setBanned(first.id)
        await #expect(throws: ExternalLogin.Refusal.banned) { _ = try await login.run(idToken: "good", nonce: "n4", clientKey: "c") }
    }

    @Test("U9: an owner re-authenticates with their password or PIN; an admin deletes neither themselves nor an admin")
    func accountEnd() async throws {
        let signIns = signIns
        let end = EndAccount(
            accounts: credentials, ends: signIns, tries: tries, hasher: PasswordHasher.fast,
            limits: .init(passwordCeiling: Self.limit(2), pinCeiling: Self.limit(2), installDeletionsPerAddress: Self.limit(5)))
        let admin = try await credentials.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let other = try await credentials.add(email: "other@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let surveyor = try await credentials.add(email: "s@example.com", kind: .survey, role: .user, password: "1234", hasher: PasswordHasher.fast)
        let install = try await signIns.createInstall(app: .weather, installId: "i")
        let here = "10.0.0.1"
        #expect(
            await refusal { try await end.deleteOwn(admin.id, password: nil, pin: nil, clientKey: here) } as? EndAccount.Refusal
                == .reauthenticationFailed)
        #expect(
            await refusal { try await end.deleteOwn(admin.id, password: "Wrong1234", pin: nil, clientKey: here) } as? EndAccount.Refusal
                == .reauthenticationFailed)
        #expect(
            await refusal { try await end.deleteOwn(surveyor.id, password: "1234", pin: nil, clientKey: here) } as? EndAccount.Refusal
                == .reauthenticationFailed)
        try await end.deleteOwn(surveyor.id, password: nil, pin: "1234", clientKey: here)
        try await end.deleteOwn(install.id, password: nil, pin: nil, clientKey: here)
        await #expect(throws: EndAccount.Refusal.noAccount) { try await end.deleteOwn(install.id, password: nil, pin: nil, clientKey: here) }
        await #expect(throws: EndAccount.Refusal.ownAccount) { try await end.delete(admin.id, byAdmin: admin.id.uuidString.uppercased()) }
        await #expect(throws: EndAccount.Refusal.adminAccount) { try await end.delete(other.id, byAdmin: admin.id.uuidString) }
        await #expect(throws: EndAccount.Refusal.unknownAccount) { try await end.delete(UUID(), byAdmin: admin.id.uuidString) }
        #expect(signIns.deleted.map(\.by) == [.owner, .owner])
        // The wrong password's try stands against the account's ceiling; the right one gives its own back.
        #expect(attempts.count(.accountCeiling, subject: admin.id.uuidString) == 1)
    }

    @Test("U6: a paid payment grants while it stands; a refund takes back only when none stands")
    func paymentEffect() {
        #expect(ProviderPaymentStatus.paid.change(standing: 1) == .grant)
        #expect(ProviderPaymentStatus.paid.change(standing: 0) == .none, "its refund came first")
        #expect(ProviderPaymentStatus.refunded.change(standing: 0) == .revoke)
        #expect(ProviderPaymentStatus.refunded.change(standing: 1) == .none, "another payment stands")
        let payments: [(paymentId: String, entitlement: Entitlement, status: ProviderPaymentStatus)] = [
            ("p1", .tarot, .paid), ("p1", .tarot, .refunded), ("p2", .tarot, .paid), ("p3", .compatibility, .paid),
            ("p3", .compatibility, .refunded), ("p4", .fortuneStick, .refunded),
        ]
        #expect(ProviderPaymentStatus.paidEntitlements(payments) == [.tarot], "p2 stands for tarot; p3 was refunded; p4's refund came alone")
    }

    @Test("U6: a payment history lists the features still paid for, by name, whatever the payments' order")
    func paymentHistory() {
        func payment(_ id: String, _ entitlement: Entitlement, _ status: ProviderPaymentStatus) -> Payment {
            Payment(paymentId: id, entitlement: entitlement, status: status, amountCents: 299, receivedAt: Date(timeIntervalSince1970: 0))
        }
        let history = PaymentHistory(payments: [
            payment("p5", .tarot, .paid), payment("p6", .compatibility, .paid), payment("p7", .phoneNumber, .refunded),
            payment("p7", .phoneNumber, .paid),
        ])
        #expect(history.paidEntitlements == [.compatibility, .tarot], "by name; p7 was refunded")
        #expect(PaymentHistory(payments: []).paidEntitlements.isEmpty)
    }
}
