import Foundation
import PlatformCore
import PlatformEvents
import Synchronization

@testable import Auth

/// Accounts as the admin, payment and profile use cases see them, in memory: `AdminStore`'s and
/// `AccountStore`'s rules without Postgres (the row locks that order racing writes are what the integration
/// tests check). The events it would publish are kept for the test to read, as `type:value`.
final class MemoryAdministeredAccounts: AccountAdministration, PaymentLedger, Profiles {
    private struct Payment {
        let paymentId: String
        let accountId: UUID
        let entitlement: Entitlement
        let status: ProviderPaymentStatus
    }

    private struct State {
        var accounts: [UUID: Account] = [:]
        var profiles: [UUID: AccountStore.Profile] = [:]
        var payments: [Payment] = []
        /// Install id → the account it was merged into (`install_merges`).
        var merges: [UUID: UUID] = [:]
        var events: [String] = []
        var sessionsEnded: [UUID] = []
    }

    private let state = Mutex(State())

    var events: [String] { state.withLock { $0.events } }
    var sessionsEnded: [UUID] { state.withLock { $0.sessionsEnded } }
    func account(_ id: UUID) -> Account? { state.withLock { $0.accounts[id] } }
    func profile(_ id: UUID) -> AccountStore.Profile? { state.withLock { $0.profiles[id] } }

    /// Adds an account of `kind` and `role` with no profile fields; returns its id.
    func add(kind: AccountKind = .install, role: UserRole = .user) -> UUID {
        let account = Account(
            id: UUID(), email: nil, kind: kind, role: role, displayName: nil, entitlements: [], banned: false,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        state.withLock {
            $0.accounts[account.id] = account
            $0.profiles[account.id] = AccountStore.Profile(language: nil, timeZone: nil, zodiacSign: nil)
        }
        return account.id
    }

    func update(id: UUID, displayName: String?, role: UserRole?, banned: Bool?) async throws -> Bool {
        state.withLock { state in
            guard let before = state.accounts[id] else { return false }
            let change = AccountChange(displayName: displayName, role: role, banned: banned)
            state.accounts[id]?.displayName = displayName ?? before.displayName
            state.accounts[id]?.role = role ?? before.role
            state.accounts[id]?.banned = banned ?? before.banned
            if let role = change.changedRole(from: before.role.rawValue) { state.events.append("user.role-changed:\(role.rawValue)") }
            if let banned {
                if change.endsSessions { state.sessionsEnded.append(id) }
                state.events.append("user.banned:\(banned)")
            }
            return true
        }
    }

    func grant(_ entitlement: Entitlement, to id: UUID) async throws -> Bool {
        state.withLock { Self.grant(entitlement, to: id, in: &$0) }
    }

    func revoke(_ entitlement: Entitlement, from id: UUID) async throws -> Bool {
        state.withLock { Self.revoke(entitlement, from: id, in: &$0) }
    }

    func record(
        paymentId: String, accountId: UUID, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64
    ) async throws -> PaymentOutcome {
        state.withLock { state in
            let owner = PaymentOwner.of(
                recorded: state.payments.first { $0.paymentId == paymentId }?.accountId,
                named: state.accounts[accountId] != nil ? accountId : nil, mergedInto: state.merges[accountId])
            guard let owner else { return .unknownAccount }
            // The unique key (payment_id, status) of the payments table.
            if state.payments.contains(where: { $0.paymentId == paymentId && $0.status == status }) { return .duplicate }
            state.payments.append(Payment(paymentId: paymentId, accountId: owner, entitlement: entitlement, status: status))
            let refunded = Set(state.payments.filter { $0.status == .refunded }.map(\.paymentId))
            let standing = state.payments.count {
                $0.accountId == owner && $0.entitlement == entitlement && $0.status == .paid && !refunded.contains($0.paymentId)
            }
            switch status.change(standing: standing) {
            case .grant: _ = Self.grant(entitlement, to: owner, in: &state)
            case .revoke: _ = Self.revoke(entitlement, from: owner, in: &state)
            case .none: break
            }
            return .recorded
        }
    }

    func updateProfile(of id: UUID, displayName: String?, language: String?, timeZone: String?, zodiacSign: String?) async throws -> Bool {
        state.withLock { state in
            guard let before = state.profiles[id] else { return false }
            if let displayName { state.accounts[id]?.displayName = displayName }
            state.profiles[id] = AccountStore.Profile(
                language: language ?? before.language, timeZone: timeZone ?? before.timeZone, zodiacSign: zodiacSign ?? before.zodiacSign)
            return true
        }
    }

    /// The account's record, taken out of the store (for a merge).
    func remove(_ id: UUID) -> (account: Account, profile: AccountStore.Profile)? {
        state.withLock { state in
            guard let account = state.accounts.removeValue(forKey: id), let profile = state.profiles.removeValue(forKey: id) else { return nil }
            return (account, profile)
        }
    }

    /// Moves the install's payments and paid features (each new one announced) and the profile fields `into` has not
    /// set; the install's id, and those merged into it, lead to `into` from then on.
    func absorb(_ install: (account: Account, profile: AccountStore.Profile), into id: UUID) {
        state.withLock { state in
            let held = state.accounts[id]?.entitlements ?? []
            for entitlement in install.account.entitlements.compactMap(Entitlement.init(rawValue:)) where !held.contains(entitlement.rawValue) {
                _ = Self.grant(entitlement, to: id, in: &state)
            }
            if state.accounts[id]?.displayName == nil { state.accounts[id]?.displayName = install.account.displayName }
            if let before = state.profiles[id] {
                state.profiles[id] = AccountStore.Profile(
                    language: before.language ?? install.profile.language, timeZone: before.timeZone ?? install.profile.timeZone,
                    zodiacSign: before.zodiacSign ?? install.profile.zodiacSign)
            }
            for (from, to) in state.merges where to == install.account.id { state.merges[from] = id }
            state.merges[install.account.id] = id
            for index in state.payments.indices where state.payments[index].accountId == install.account.id {
                state.payments[index] = Payment(
                    paymentId: state.payments[index].paymentId, accountId: id, entitlement: state.payments[index].entitlement,
                    status: state.payments[index].status)
            }
        }
    }

    private static func grant(_ entitlement: Entitlement, to id: UUID, in state: inout State) -> Bool {
        guard state.accounts[id] != nil else { return false }
        state.accounts[id]?.entitlements.insert(entitlement.rawValue)
        state.events.append("entitlement.granted:\(entitlement.rawValue)")
        return true
    }

    private static func revoke(_ entitlement: Entitlement, from id: UUID, in state: inout State) -> Bool {
        guard state.accounts[id] != nil else { return false }
        state.accounts[id]?.entitlements.remove(entitlement.rawValue)
        state.events.append("entitlement.revoked:\(entitlement.rawValue)")
        return true
    }
}
