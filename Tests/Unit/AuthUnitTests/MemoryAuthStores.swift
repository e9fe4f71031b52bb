import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Synchronization

@testable import Auth

/// Failed attempts in memory, with a clock the test moves: `AttemptStore`'s rules without Postgres (its lock per
/// subject is what the integration tests check).
final class MemoryAttempts: AttemptRecording {
    private struct Failure {
        let id: Int64
        let kind: AttemptKind
        let subject: String
        let at: Date
    }

    private let state = Mutex<(failures: [Failure], nextId: Int64, now: Date)>(([], 1, Date(timeIntervalSince1970: 1_800_000_000)))

    var now: Date { state.withLock { $0.now } }

    func advance(by seconds: TimeInterval) { state.withLock { $0.now.addTimeInterval(seconds) } }

    func count(_ kind: AttemptKind, subject: String) -> Int {
        state.withLock { $0.failures.count { $0.kind == kind && $0.subject == subject } }
    }

    var total: Int { state.withLock { $0.failures.count } }

    func reserve(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptReservation {
        state.withLock { state in
            let failures = state.failures.filter { $0.kind == kind && $0.subject == subject }.map(\.at)
            if let until = limit.lockedUntil(failures: failures, now: state.now) { return .locked(until: until) }
            let id = state.nextId
            state.nextId += 1
            state.failures.append(Failure(id: id, kind: kind, subject: subject, at: state.now))
            let left = max(0, limit.triesLeft(failures: failures, now: state.now) - 1)
            return .taken(AttemptTry(kind: kind, subject: subject, id: id, triesLeftIfFailed: left))
        }
    }

    func release(_ attempt: AttemptTry) async throws {
        state.withLock { $0.failures.removeAll { $0.id == attempt.id } }
    }

    func clear(_ kind: AttemptKind, subject: String) async throws {
        state.withLock { $0.failures.removeAll { $0.kind == kind && $0.subject == subject } }
    }

    func clear(_ kind: AttemptKind, subjectsStartingWith prefix: String) async throws {
        state.withLock { $0.failures.removeAll { $0.kind == kind && $0.subject.hasPrefix(prefix) } }
    }

    func failures(_ kind: AttemptKind, subject: String, within window: TimeInterval) async throws -> [Date] {
        state.withLock { state in
            state.failures.filter { $0.kind == kind && $0.subject == subject && state.now.timeIntervalSince($0.at) < window }
                .map(\.at).sorted()
        }
    }
}

/// Accounts with their hashes in memory.
final class MemoryCredentials: CredentialRepository {
    private let accounts = Mutex<[UUID: StoredCredentials]>([:])

    /// Adds an account of `kind` with `password` hashed by `hasher`; returns it.
    @discardableResult
    func add(
        email: String, kind: AccountKind = .dashboard, role: UserRole = .admin, password: String, banned: Bool = false,
        hasher: PasswordHasher
    ) async throws -> Account {
        let account = Account(
            id: UUID(), email: email, kind: kind, role: role, displayName: nil, entitlements: [], banned: banned,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        let hash = try await hasher.hash(password)
        accounts.withLock {
            $0[account.id] = StoredCredentials(account: account, passwordHash: kind == .survey ? nil : hash, pinHash: kind == .survey ? hash : nil)
        }
        return account
    }

    func passwordHash(of id: UUID) -> String? { accounts.withLock { $0[id]?.passwordHash } }

    func credentials(email: EmailAddress) async throws -> StoredCredentials? {
        accounts.withLock { $0.values.first { $0.account.email == email.value } }
    }

    func credentials(id: UUID) async throws -> StoredCredentials? {
        accounts.withLock { $0[id] }
    }

    func setPasswordHash(_ hash: String, for id: UUID) async throws {
        accounts.withLock { $0[id]?.passwordHash = hash }
    }

    /// False when there was no such account.
    func remove(_ id: UUID) -> Bool { accounts.withLock { $0.removeValue(forKey: id) != nil } }

    func setBanned(_ id: UUID) { accounts.withLock { $0[id]?.account.banned = true } }

    /// Records the account as attested at `at`; returns it as it is now.
    func attest(_ id: UUID, at: Date) -> Account? {
        accounts.withLock {
            $0[id]?.account.attestedAt = at
            return $0[id]?.account
        }
    }

    func pinHash(of id: UUID) -> String? { accounts.withLock { $0[id]?.pinHash } }

    func setPinHash(_ hash: String, for id: UUID) { accounts.withLock { $0[id]?.pinHash = hash } }

    func create(email: EmailAddress?, kind: AccountKind, role: UserRole, passwordHash: String?, pinHash: String?) async throws -> Account? {
        accounts.withLock { accounts in
            if let email, accounts.values.contains(where: { $0.account.email == email.value }) { return nil }
            let account = Account(
                id: UUID(), email: email?.value, kind: kind, role: role, displayName: nil, entitlements: [], banned: false,
                createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            accounts[account.id] = StoredCredentials(account: account, passwordHash: passwordHash, pinHash: pinHash)
            return account
        }
    }
}

/// Mailed secrets in memory: reset links, forgot-PIN codes and confirmation codes, each usable once, with what
/// was mailed kept for the test to read.
final class MemoryMailedSecrets: PasswordResets, PinResets, EmailVerifications {
    private struct State {
        var resetLinks: [String: UUID] = [:]
        var pinCodes: [UUID: String] = [:]
        var confirmationCodes: [UUID: String] = [:]
        var verified: Set<UUID> = []
        var mailed: [String] = []
    }

    private let state = Mutex(State())
    let credentials: MemoryCredentials

    init(credentials: MemoryCredentials) { self.credentials = credentials }

    var mailed: [String] { state.withLock { $0.mailed } }
    func isVerifiedNow(_ id: UUID) -> Bool { state.withLock { $0.verified.contains(id) } }
    func addResetLink(_ token: String, for id: UUID) { state.withLock { $0.resetLinks[token] = id } }
    func addPinCode(_ code: String, for id: UUID) { state.withLock { $0.pinCodes[id] = code } }
    func confirmationCode(of id: UUID) -> String? { state.withLock { $0.confirmationCodes[id] } }

    func isUsable(token: String) async throws -> Bool { state.withLock { $0.resetLinks[token] != nil } }

    func complete(token: String, passwordHash: String) async throws -> Bool {
        guard let id = state.withLock({ $0.resetLinks.removeValue(forKey: token) }) else { return false }
        try await credentials.setPasswordHash(passwordHash, for: id)
        return true
    }

    func isValid(code: String, for accountId: UUID) async throws -> Bool { state.withLock { $0.pinCodes[accountId] == code } }

    func complete(code: String, accountId: UUID, pinHash: String) async throws -> Bool {
        let used = state.withLock { state -> Bool in
            guard state.pinCodes[accountId] == code else { return false }
            state.pinCodes[accountId] = nil
            return true
        }
        if used { credentials.setPinHash(pinHash, for: accountId) }
        return used
    }

    func isVerified(_ accountId: UUID) async throws -> Bool { isVerifiedNow(accountId) }

    func start(for account: Account, email: EmailAddress) async throws {
        state.withLock {
            let code = String(Int.random(in: 100_000...999_999))
            $0.confirmationCodes[account.id] = code
            $0.mailed.append(email.value)
        }
    }

    func verify(code: String, account: Account, email: EmailAddress) async throws -> EmailVerificationOutcome {
        state.withLock { state in
            if state.verified.contains(account.id) { return .alreadyVerified }
            guard state.confirmationCodes[account.id] == code else { return .invalidCode }
            state.confirmationCodes[account.id] = nil
            state.verified.insert(account.id)
            return .verified
        }
    }
}

extension PasswordHasher {
    /// bcrypt at its lowest cost: the same checks, about a millisecond each.
    static let fast = PasswordHasher(cost: 4)
}
