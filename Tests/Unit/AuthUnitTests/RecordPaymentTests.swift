import Foundation
import Testing

@testable import Auth

/// The payment provider's notifications (U6) over a memory ledger.
@Suite("auth: recording payments")
struct RecordPaymentTests {
    let accounts = MemoryAdministeredAccounts()
    var record: RecordPayment { RecordPayment(payments: accounts) }

    func notification(_ paymentId: String, _ status: ProviderPaymentStatus, for id: UUID) -> RecordPayment.Notification {
        .init(paymentId: paymentId, accountId: id, entitlement: .tarot, status: status, amountCents: 9_900)
    }

    @Test("U6: a payment id and status is applied once; a paid payment grants its feature")
    func appliedOnceAndGrants() async throws {
        let id = accounts.add()
        #expect(try await record.run(notification("p1", .paid, for: id)) == .recorded)
        #expect(try await record.run(notification("p1", .paid, for: id)) == .duplicate)
        #expect(accounts.account(id)?.entitlements == ["tarot"])
        #expect(accounts.events == ["entitlement.granted:tarot"], "a duplicate changes nothing")
    }

    @Test("U6: a refund revokes the feature unless another paid payment for it stands")
    func refundRevokesUnlessAnotherStands() async throws {
        let id = accounts.add()
        _ = try await record.run(notification("p1", .paid, for: id))
        _ = try await record.run(notification("p2", .paid, for: id))
        _ = try await record.run(notification("p1", .refunded, for: id))
        #expect(accounts.account(id)?.entitlements == ["tarot"], "p2 still stands")
        _ = try await record.run(notification("p2", .refunded, for: id))
        #expect(accounts.account(id)?.entitlements == [])
        #expect(accounts.events.last == "entitlement.revoked:tarot")
    }

    @Test("U6: a refund that came before its payment keeps the payment from granting")
    func refundFirstKeepsPaymentFromGranting() async throws {
        let id = accounts.add()
        _ = try await record.run(notification("p1", .refunded, for: id))
        #expect(try await record.run(notification("p1", .paid, for: id)) == .recorded)
        #expect(accounts.account(id)?.entitlements == [])
    }

    @Test("U6: a notification for an unknown account is refused")
    func unknownAccount() async throws {
        await #expect(throws: AccountRefusal.unknownAccount) { try await record.run(notification("p1", .paid, for: UUID())) }
    }

    @Test("U6: a payment follows its first record, else the account named, else the one a named install merged into")
    func paymentOwner() {
        let (first, named, survivor) = (UUID(), UUID(), UUID())
        #expect(PaymentOwner.of(recorded: first, named: named, mergedInto: nil) == first, "a refund goes where its payment is")
        #expect(PaymentOwner.of(recorded: nil, named: named, mergedInto: nil) == named)
        #expect(PaymentOwner.of(recorded: nil, named: nil, mergedInto: survivor) == survivor)
        #expect(PaymentOwner.of(recorded: nil, named: nil, mergedInto: nil) == nil)
    }

    @Test("U6: after installs merge (one into another, then into a member), notifications naming them reach the member")
    func notificationsFollowMerges() async throws {
        let sessions = MemorySessions(accounts: accounts)
        let install = accounts.add(), second = accounts.add(), member = accounts.add(kind: .horoscope)
        _ = try await record.run(notification("p1", .paid, for: install))
        sessions.addRefreshToken("install", for: install)
        sessions.addRefreshToken("second", for: second)
        _ = try await MergeInstallAccount(merges: sessions).run(installRefreshToken: "install", into: second)
        _ = try await MergeInstallAccount(merges: sessions).run(installRefreshToken: "second", into: member)
        #expect(accounts.account(member)?.entitlements == ["tarot"])
        #expect(try await record.run(notification("p1", .refunded, for: install)) == .recorded)
        #expect(accounts.account(member)?.entitlements == [], "the refund naming the first install took the feature back")
        #expect(try await record.run(notification("p2", .paid, for: second)) == .recorded, "a late payment naming an install merged away")
        #expect(accounts.account(member)?.entitlements == ["tarot"])
    }
}
