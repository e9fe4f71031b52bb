import Foundation
import PlatformEvents
import Synchronization

@testable import Auth

/// Install and external accounts, rotating refresh tokens and account ends in memory, over `MemoryCredentials`.
final class MemorySignIns: InstallAccounts, ExternalIdentities, RefreshTokens, AccountEnds {
    private struct State {
        var externals: [String: UUID] = [:]
        var nonces: Set<String> = []
        /// Refresh token → account; a used one is kept to tell reuse.
        var tokens: [String: UUID] = [:]
        var used: Set<String> = []
        var deleted: [(UUID, DeletionCause)] = []
        /// Attestation fingerprints that attested an account.
        var attestations: Set<String> = []
    }

    private let state = Mutex(State())
    let credentials: MemoryCredentials

    init(credentials: MemoryCredentials) { self.credentials = credentials }

    var deleted: [(id: UUID, by: DeletionCause)] { state.withLock { $0.deleted } }

    func addRefreshToken(_ token: String, for id: UUID) { state.withLock { $0.tokens[token] = id } }

    func createInstall(app: InstallApp, installId: String) async throws -> Account {
        try await create(kind: .install)
    }

    func createInstall(app: InstallApp, installId: String, attested: AttestedInstall) async throws -> Account? {
        guard state.withLock({ $0.attestations.insert(attested.fingerprint).inserted }) else { return nil }
        let account = try await create(kind: .install)
        return credentials.attest(account.id, at: account.createdAt)
    }

    func useNonce(_ nonce: String, issuer: String, until expiry: Date) async throws -> Bool {
        state.withLock { $0.nonces.insert("\(issuer) \(nonce)").inserted }
    }

    func findOrCreateExternal(subject: String, displayName: String?, app: InstallApp) async throws -> Account {
        if let id = state.withLock({ $0.externals[subject] }), let stored = try await credentials.credentials(id: id) { return stored.account }
        let account = try await create(kind: .horoscope)
        state.withLock { $0.externals[subject] = account.id }
        return account
    }

    func rotate(_ token: String) async throws -> RefreshOutcome {
        state.withLock { state in
            if state.used.contains(token) { return .reused }
            guard let id = state.tokens.removeValue(forKey: token) else { return .invalid }
            state.used.insert(token)
            let next = UUID().uuidString
            state.tokens[next] = id
            return .rotated(accountId: id, newToken: next)
        }
    }

    func delete(_ id: UUID, by: DeletionCause) async throws -> Bool {
        guard credentials.remove(id) else { return false }
        state.withLock { $0.deleted.append((id, by)) }
        return true
    }

    private func create(kind: AccountKind) async throws -> Account {
        guard let account = try await credentials.create(email: nil, kind: kind, role: .user, passwordHash: nil, pinHash: nil) else {
            throw AccountStore.NotCreated()
        }
        return account
    }
}

/// An identity provider's verdicts, scripted per token.
struct ScriptedVerifier: IDTokenVerifying {
    let verdicts: [String: Result<VerifiedIdentity, IDTokenFailure>]

    func identity(of token: String, nonce: String?) async throws(IDTokenFailure) -> VerifiedIdentity {
        switch verdicts[token] ?? .failure(.invalidToken) {
        case .success(let identity): return identity
        case .failure(let failure): throw failure
        }
    }
}
