import Foundation
import Testing

@testable import Auth

/// auth's rules on what a user types and how often they may get it wrong (U2-U4, U7), as pure logic: the
/// service tests check the same rules through its routes and Postgres.
@Suite("auth: credentials, email addresses and attempt limits")
struct AuthDomainRuleTests {
    @Test("U3: a password has 8 characters or more, an upper- and a lower-case letter and a digit; at most 72 bytes")
    func passwordPolicy() {
        #expect(CredentialPolicy.isAcceptablePassword("Start1234"))
        #expect(CredentialPolicy.isAcceptablePassword("Ünïcode9x"), "letters beyond ASCII count as letters")
        for weak in ["Sta1234", "start1234", "START1234", "Startabcd", ""] {
            #expect(!CredentialPolicy.isAcceptablePassword(weak), "\(weak)")
        }
        let longest = "Aa1" + String(repeating: "x", count: 69)
        #expect(CredentialPolicy.isAcceptablePassword(longest) && !CredentialPolicy.isAcceptablePassword(longest + "x"))
        #expect(!CredentialPolicy.isAcceptablePassword("Aa1" + String(repeating: "é", count: 35)), "72 bytes, not characters")
    }

    @Test("U4: a PIN is exactly four ASCII letters or digits")
    func pinFormat() {
        for pin in ["ab12", "0000", "ABCD"] { #expect(CredentialPolicy.isValidPin(pin), "\(pin)") }
        for pin in ["abc", "abc12", "ab 1", "ab-1", "abé1", "١٢٣٤", ""] { #expect(!CredentialPolicy.isValidPin(pin), "\(pin)") }
    }

    @Test("U2, U4: an email address is name@domain.tld, trimmed and kept in lower case")
    func emailAddress() {
        #expect(EmailAddress("  Guest@Hotel.COM \n")?.value == "guest@hotel.com")
        #expect(EmailAddress("first.last+tag@mail.example.co.uk") != nil)
        let refused = [
            "", "guest", "guest@", "@hotel.com", "guest@@hotel.com", "gu@est@hotel.com", ".guest@hotel.com", "guest.@hotel.com",
            "gu..est@hotel.com", "guest@hotel", "guest@hotel.c", "guest@hotel.c0m", "guest@-hotel.com", "guest@hotel-.com",
            "guest@hotel..com", "gü@hotel.com", "guest@hötel.com", "guest name@hotel.com",
        ]
        for text in refused { #expect(EmailAddress(text) == nil, "\(text)") }
        #expect(EmailAddress(String(repeating: "a", count: 65) + "@hotel.com") == nil, "a name of at most 64")
        #expect(EmailAddress("a@" + String(repeating: "b", count: 64) + ".com") == nil, "a label of at most 63")
        let long = String(repeating: "a", count: 60) + "@" + Array(repeating: String(repeating: "b", count: 60), count: 4).joined(separator: ".")
        #expect(EmailAddress(long + ".com") == nil, "at most 254 in all")
    }

    @Test("U4: one mailbox behind a +tag, and behind dots and googlemail at Gmail only")
    func mailbox() {
        #expect(EmailAddress("guest+hotel@example.com")?.mailbox == "guest@example.com")
        #expect(EmailAddress("a.b+1@gmail.com")?.mailbox == "ab@gmail.com")
        #expect(EmailAddress("a.b@googlemail.com")?.mailbox == "ab@gmail.com")
        #expect(EmailAddress("a.b@example.com")?.mailbox == "a.b@example.com", "dots matter elsewhere")
    }

    @Test("U7: after maxFailures failures within the window, locked until the oldest counted one leaves it")
    func attemptLimit() {
        let limit = AttemptLimit(maxFailures: 3, window: 600)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ago = { (seconds: TimeInterval) in now.addingTimeInterval(-seconds) }
        #expect(limit.lockedUntil(failures: [ago(10), ago(20)], now: now) == nil)
        #expect(limit.triesLeft(failures: [ago(10), ago(20)], now: now) == 1)
        // Four recent failures: the lock ends when the third newest (the oldest of the last three) leaves the window.
        let failures = [ago(30), ago(500), ago(10), ago(300)]
        #expect(limit.lockedUntil(failures: failures, now: now) == ago(300).addingTimeInterval(600))
        #expect(limit.triesLeft(failures: failures, now: now) == 0)
        // Failures older than the window count for nothing.
        #expect(limit.lockedUntil(failures: [ago(600), ago(700), ago(5), ago(6)], now: now) == nil)
        #expect(limit.triesLeft(failures: [ago(600), ago(5)], now: now) == 2)
    }

    @Test("U7: an account's tries from one address are found by the account's prefix, never another account's")
    func attemptSubjects() {
        let (account, other) = (UUID(), UUID())
        let subject = AttemptSubject.ownerAndAddress(account, address: "203.0.113.7")
        #expect(subject.hasPrefix(AttemptSubject.owner(account)))
        #expect(!subject.hasPrefix(AttemptSubject.owner(other)))
        #expect(AttemptSubject.ownerAndAddress(account, address: "203.0.113.8") != subject)
    }

    @Test("U7: refresh tokens are 256 random bits, stored only as their SHA-256")
    func refreshTokens() {
        let tokens = (0..<100).map { _ in TokenIssuer.newRefreshToken() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })
        #expect(TokenIssuer.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
