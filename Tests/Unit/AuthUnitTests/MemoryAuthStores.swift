import Foundation
import PlatformCore
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
}

extension PasswordHasher {
    /// bcrypt at its lowest cost: the same checks, about a millisecond each.
    static let fast = PasswordHasher(cost: 4)
}
