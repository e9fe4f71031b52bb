import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Testing
import UnitTestSupport

@testable import Auth

/// Which accounts the other services trust with what costs others, and the `trusted` claim that tells them (U5,
/// U7): an install account earns trust by attestation, by age, or by an admin's or a payment's word.
@Suite("auth: install trust and the trusted claim")
struct InstallTrustTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)
    static let trust = InstallTrust(after: 72 * 3_600)

    static func account(
        _ kind: AccountKind, role: UserRole = .user, entitlements: Set<String> = [], attestedAt: Date? = nil
    ) -> Account {
        Account(
            id: UUID(), email: nil, kind: kind, role: role, displayName: nil, entitlements: entitlements, banned: false, createdAt: created,
            attestedAt: attestedAt)
    }

    @Test("U8: a new install is untrusted until INSTALL_TRUST_AFTER_HOURS, at once when attested; other kinds always")
    func trustRule() {
        let install = Self.account(.install)
        #expect(!Self.trust.trusts(install, now: Self.created))
        #expect(!Self.trust.trusts(install, now: Self.created.addingTimeInterval(72 * 3_600 - 1)), "one second short")
        #expect(Self.trust.trusts(install, now: Self.created.addingTimeInterval(72 * 3_600)), "exactly the age")
        #expect(Self.trust.trusts(Self.account(.install, attestedAt: Self.created), now: Self.created), "attested")
        for kind in [AccountKind.dashboard, .horoscope] {
            #expect(Self.trust.trusts(Self.account(kind), now: Self.created), "\(kind): a linked account")
        }
        // A survey account is anyone's with any address: trusted once the address is confirmed, or by age.
        var survey = Self.account(.survey)
        #expect(!Self.trust.trusts(survey, now: Self.created), "a survey sign-up with an unconfirmed address")
        #expect(Self.trust.trusts(survey, now: Self.created.addingTimeInterval(72 * 3_600)), "by age")
        survey.emailVerifiedAt = Self.created
        #expect(Self.trust.trusts(survey, now: Self.created), "its address confirmed")
        #expect(Self.trust.trusts(Self.account(.install, role: .partner), now: Self.created), "an admin made it a partner")
        #expect(Self.trust.trusts(Self.account(.install, role: .admin), now: Self.created))
        #expect(Self.trust.trusts(Self.account(.install, entitlements: ["tarot"]), now: Self.created), "a paid feature")
        #expect(InstallTrust(after: 0).trusts(install, now: Self.created), "0 trusts every install at once")
    }

    @Test("U8, U7: auth signs the trusted claim; every service reads it, and a token without it is trusted")
    func trustedClaim() async throws {
        let keys = try TestTokens()
        let issuer = try await TokenIssuer(
            signingKey: keys.privateKeyBase64URL, issuer: keys.issuer, accessTokenLifetime: 900, trust: Self.trust)
        let verifier = try await AccessTokenVerifier(publicKey: keys.publicKeyBase64URL, issuer: keys.issuer)
        let install = Self.account(.install)
        let now = Date()
        var account = install
        account.createdAt = now
        let fresh = try await verifier.verify(try await issuer.accessToken(for: account, now: now))
        #expect(fresh.id == AccountKey.of(account.id) && !fresh.trusted)
        account.attestedAt = now
        #expect(try await verifier.verify(try await issuer.accessToken(for: account, now: now)).trusted)
        account = Self.account(.dashboard)
        #expect(try await verifier.verify(try await issuer.accessToken(for: account, now: now)).trusted)
        // A token signed before the claim existed: as trusted as every account was then.
        #expect(try await verifier.verify(try await keys.token(userId: "old-token")).trusted)
        let untrusted = try await verifier.verify(try await keys.token(userId: "new-install", trusted: false))
        #expect(!untrusted.trusted)
    }
}
