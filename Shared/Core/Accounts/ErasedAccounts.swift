import Crypto
import Foundation
import Synchronization

/// The accounts this service knows to be deleted or merged into another (issue 29), by a one-way hash of their id:
/// their access tokens are refused at once, although they stay valid by signature until they expire, and the
/// hash is all a service keeps of an erased id. Filled from `erased_accounts` at start and then every second
/// (`ErasedAccountsRefresh`), so a replica that did not apply the event itself learns of it too; the replica that
/// applied it knows at once.
public final class ErasedAccounts: Sendable {
    private struct State {
        var hashes: Set<String> = []
        /// The highest `erased_accounts.seq` read, so a refresh reads only what is new.
        var lastSeq: Int64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The hash a service stores for an erased account id (lower-case UUID text, as tokens carry it).
    public static func hash(of userId: String) -> String {
        SHA256.hash(data: Data(userId.lowercased().utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func contains(_ userId: String) -> Bool {
        state.withLock { $0.hashes.isEmpty ? false : $0.hashes.contains(Self.hash(of: userId)) }
    }

    package func insert(hash: String) {
        _ = state.withLock { $0.hashes.insert(hash) }
    }

    package var lastSeq: Int64 { state.withLock { $0.lastSeq } }

    package func add(_ rows: [(hash: String, seq: Int64)]) {
        state.withLock { state in
            for row in rows {
                state.hashes.insert(row.hash)
                state.lastSeq = max(state.lastSeq, row.seq)
            }
        }
    }
}
