import Foundation
import Synchronization

@testable import Auth

/// Live refresh tokens over `MemoryAdministeredAccounts`: a login starts one (and is recorded), logout ends one, a
/// merge folds the install whose token it is into the caller's account with `AccountEndStore.mergeInstall`'s checks
/// in the same order.
final class MemorySessions: SessionStarts, LoginRecords, SessionEnds, InstallMerges {
    private let tokens = Mutex<[String: UUID]>([:])
    private let recordedLogins = Mutex<[UUID]>([])
    let accounts: MemoryAdministeredAccounts

    init(accounts: MemoryAdministeredAccounts) { self.accounts = accounts }

    func addRefreshToken(_ token: String, for id: UUID) { tokens.withLock { $0[token] = id } }

    var logins: [UUID] { recordedLogins.withLock { $0 } }

    func start(accountId: UUID) async throws -> String {
        let token = UUID().uuidString
        tokens.withLock { $0[token] = accountId }
        return token
    }

    func recordLogin(_ account: Account) async throws { recordedLogins.withLock { $0.append(account.id) } }

    func end(_ token: String, accountId: UUID) async throws -> Bool {
        tokens.withLock { tokens in
            guard tokens[token] == accountId else { return false }
            tokens[token] = nil
            return true
        }
    }

    func mergeInstall(refreshToken: String, into: UUID) async throws -> InstallMergeOutcome {
        guard let from = tokens.withLock({ $0[refreshToken] }) else { return .invalidToken }
        guard from != into else { return .notAnInstall }
        guard let install = accounts.account(from) else { return .invalidToken }
        guard accounts.account(into) != nil else { return .noAccount }
        guard InstallMerge.mayMerge(from: from, kind: install.kind.rawValue, role: install.role.rawValue, into: into) else {
            return .notAnInstall
        }
        guard let record = accounts.remove(from) else { return .invalidToken }
        accounts.absorb(record, into: into)
        tokens.withLock { tokens in tokens = tokens.filter { $0.value != from } }
        return .merged(from: from)
    }
}
