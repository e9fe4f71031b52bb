import Foundation
import JWTKit
import PlatformCore
import PlatformHTTP
import Testing
import UnitTestSupport

/// The erased accounts a service keeps: a keyed hash of each id, so the table links nothing to whoever
/// holds an id but not the key, remembered in memory only while a token issued before the erasure can be presented.
@Suite("Erased accounts: keyed, and remembered for a token's life")
struct ErasedAccountsTests {
    let id = "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01"
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("U9: one id under two keys gives two stored values, neither the id's plain SHA-256; one key gives one, whatever the case")
    func keyedHash() {
        let first = ErasedAccountKey(secret: String(repeating: "a", count: 32))
        let second = ErasedAccountKey(secret: String(repeating: "b", count: 32))
        #expect(first.hash(of: id) != second.hash(of: id))
        #expect(first.hash(of: id) == first.hash(of: id.uppercased()))
        #expect(first.hash(of: id) != first.hash(of: "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e02"))
        #expect(first.hash(of: id) != ErasedAccounts.unkeyedHash(of: id), "the unsalted hash anyone holding the id can compute")
        #expect(first.hash(of: id).count == 64)
        #expect(ErasedAccounts(key: first).storedValue(of: id) == first.hash(of: id))
        #expect(ErasedAccounts(key: first).storedForms(of: id) == [first.hash(of: id), ErasedAccounts.unkeyedHash(of: id)])
    }

    @Test("U9: memory keeps an erasure for the longest token life and a margin, no longer")
    func retentionCoversTheLongestToken() {
        #expect(ErasedAccounts.retention > AccessTokenLifetime.maximum + AccessTokenLifetime.leeway)
        #expect(ErasedAccounts.retention <= 2 * AccessTokenLifetime.maximum, "memory holds about an hour's erasures, not all")
    }

    @Test("U9: an erasure is refused until the retention has passed; an entry older than it is dropped")
    func pruning() {
        let erased = ErasedAccounts(key: .random())
        let old = "11111111-1111-1111-1111-111111111111"
        erased.add(
            [
                .init(value: erased.storedValue(of: id), seq: 1, erasedAt: now.addingTimeInterval(-60)),
                .init(value: erased.storedValue(of: old), seq: 2, erasedAt: now.addingTimeInterval(-erased.retention - 1)),
            ], now: now)
        #expect(erased.count == 1, "the entry older than the retention is not kept")
        #expect(erased.lastSeq == 2, "read all the same: a refresh does not read it again")
        #expect(erased.contains(id, now: now))
        #expect(!erased.contains(old, now: now))
        #expect(erased.contains(id, now: now.addingTimeInterval(erased.retention - 61)))
        #expect(!erased.contains(id, now: now.addingTimeInterval(erased.retention - 60)), "refused no longer once every token has expired")
        erased.add([], now: now.addingTimeInterval(erased.retention))
        #expect(erased.count == 0)
    }

    @Test("U9: an erasure this replica applies counts at once; a row read later keeps the later time")
    func insertThenRead() {
        let erased = ErasedAccounts(key: .random(), retention: 100)
        erased.insert(erased.storedValue(of: id), erasedAt: now)
        #expect(erased.contains(id, now: now.addingTimeInterval(1)))
        erased.add([.init(value: erased.storedValue(of: id), seq: 7, erasedAt: now.addingTimeInterval(-5))], now: now)
        #expect(erased.contains(id, now: now.addingTimeInterval(99)))
        #expect(!erased.contains(id, now: now.addingTimeInterval(100)))
    }

    @Test("U9: a row from before the key (the id's plain SHA-256) still refuses the id until it ages out")
    func unkeyedRow() {
        let erased = ErasedAccounts(key: .random())
        erased.add([.init(value: ErasedAccounts.unkeyedHash(of: id), seq: 3, erasedAt: now.addingTimeInterval(-10), keyed: false)], now: now)
        #expect(erased.contains(id.uppercased(), now: now))
        #expect(!erased.contains("22222222-2222-2222-2222-222222222222", now: now))
        erased.add([], now: now.addingTimeInterval(erased.retention))
        #expect(!erased.contains(id, now: now.addingTimeInterval(erased.retention)))
    }

    @Test("U9: ERASED_ACCOUNTS_KEY is required, 32 characters or more, and never shown")
    func keySetting() async throws {
        let tokens = try TestTokens()
        await #expect(throws: ConfigError.missing(variable: "ERASED_ACCOUNTS_KEY")) {
            _ = try await AccessTokenVerifier(environment: EnvironmentReader(["AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL]))
        }
        await #expect {
            _ = try await AccessTokenVerifier(
                environment: EnvironmentReader(["AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL, "ERASED_ACCOUNTS_KEY": "short-key"]))
        } throws: { error in
            guard case .malformed(let variable, _, _) = error as? ConfigError else { return false }
            return variable == "ERASED_ACCOUNTS_KEY" && !"\(error)".contains("short-key")
        }
        let verifier = try await AccessTokenVerifier(
            environment: EnvironmentReader(["AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL, "ERASED_ACCOUNTS_KEY": TestSecrets.erasedAccountsKey]))
        #expect(verifier.erased.storedValue(of: id) == ErasedAccountKey(secret: TestSecrets.erasedAccountsKey).hash(of: id))
    }

    @Test("U9: a token signed to live longer than auth issues them is refused: it would outlive the erasure's memory")
    func tokenLifetimeBound() async throws {
        let tokens = try TestTokens()
        let verifier = try await AccessTokenVerifier(publicKey: tokens.publicKeyBase64URL, issuer: tokens.issuer)
        _ = try await verifier.verify(try await tokens.token(userId: id, expiresIn: AccessTokenLifetime.maximum))
        await #expect(throws: AccessTokenVerifier.Failure.invalidToken) {
            _ = try await verifier.verify(try await tokens.token(userId: id, expiresIn: AccessTokenLifetime.maximum + 3_600))
        }
    }

    @Test("U9: an erased account's valid token is refused by the verifier")
    func erasedTokenRefused() async throws {
        let tokens = try TestTokens()
        let erased = ErasedAccounts(key: .random())
        let verifier = try await AccessTokenVerifier(publicKey: tokens.publicKeyBase64URL, issuer: tokens.issuer, erased: erased)
        let token = try await tokens.token(userId: id)
        _ = try await verifier.verify(token)
        erased.add([.init(value: erased.storedValue(of: id), seq: 1, erasedAt: Date())])
        await #expect(throws: AccessTokenVerifier.Failure.accountErased) { _ = try await verifier.verify(token) }
    }
}
