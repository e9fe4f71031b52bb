import Crypto
import Foundation
import Synchronization

/// The accounts this service knows to be deleted or merged into another, by a keyed hash of their id
/// (`ErasedAccountKey`): their access tokens are refused at once, although they stay valid by signature until they
/// expire. A token lives at most `AccessTokenLifetime.maximum`, so an erasure is remembered here for `retention`
/// and then dropped: every token issued before it has expired by then, and memory holds only the last hour's.
/// The table `erased_accounts` keeps its rows, to refuse late and replayed events (`ErasedAccountsStore`). Filled
/// from the table's recent rows at start and then every second (`ErasedAccountsRefresh`), so a replica that did not
/// apply the event itself learns of it too; the replica that applied it knows at once.
public final class ErasedAccounts: Sendable {
    /// How long an erasure is remembered in memory: the longest access token's life with its leeway, and four
    /// minutes more for clocks that differ and for a refresh that raced the deletion.
    public static let retention: TimeInterval = AccessTokenLifetime.maximum + AccessTokenLifetime.leeway + 240

    /// One row of `erased_accounts`, as a refresh reads it.
    package struct Row: Sendable, Equatable {
        package var value: String
        package var seq: Int64
        package var erasedAt: Date
        /// False for a row from before the key, which holds the id's unkeyed SHA-256 (`unkeyedHash`).
        package var keyed: Bool

        package init(value: String, seq: Int64, erasedAt: Date, keyed: Bool = true) {
            self.value = value
            self.seq = seq
            self.erasedAt = erasedAt
            self.keyed = keyed
        }
    }

    private struct State {
        /// Stored value: when the account was erased, and whether the value is keyed.
        var entries: [String: (erasedAt: Date, keyed: Bool)] = [:]
        /// How many entries are unkeyed: only then is an id's unkeyed hash looked up too.
        var unkeyed = 0
        /// The highest `erased_accounts.seq` read, so a refresh reads only what is new.
        var lastSeq: Int64 = 0
    }

    private let state = Mutex(State())
    private let key: ErasedAccountKey
    /// How long an erasure is remembered (`ErasedAccounts.retention`; a test's own).
    public let retention: TimeInterval

    public init(key: ErasedAccountKey, retention: TimeInterval = ErasedAccounts.retention) {
        self.key = key
        self.retention = retention
    }

    /// What a row of `erased_accounts` holds for `userId`: its keyed hash.
    public func storedValue(of userId: String) -> String {
        key.hash(of: userId)
    }

    /// Every value a row for `userId` may hold: the keyed hash, and the unkeyed one of a row from before the key.
    public func storedForms(of userId: String) -> [String] {
        [storedValue(of: userId), Self.unkeyedHash(of: userId)]
    }

    /// The id's plain SHA-256, which rows written before the key hold until `ErasedAccountsStore.forgetUnkeyed`
    /// deletes them; it goes with them.
    public static func unkeyedHash(of userId: String) -> String {
        SHA256.hash(data: Data(userId.lowercased().utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `userId` was erased less than `retention` before `now`: its tokens are refused.
    public func contains(_ userId: String, now: Date = Date()) -> Bool {
        guard let unkeyed = state.withLock({ $0.entries.isEmpty ? nil : $0.unkeyed > 0 }) else { return false }
        var values = [storedValue(of: userId)]
        if unkeyed { values.append(Self.unkeyedHash(of: userId)) }
        return state.withLock { state in
            values.contains { value in state.entries[value].map { isRemembered(erasedAt: $0.erasedAt, now: now) } ?? false }
        }
    }

    /// The rule of the memory: an erasure stays until `retention` has passed.
    public func isRemembered(erasedAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(erasedAt) < retention
    }

    /// An erasure this replica applies now.
    package func insert(_ value: String, erasedAt: Date = Date()) {
        state.withLock { Self.remember(value, erasedAt: erasedAt, keyed: true, in: &$0) }
    }

    package var lastSeq: Int64 { state.withLock { $0.lastSeq } }

    /// How many erasures are remembered.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Takes in the rows a refresh read, then forgets what `retention` has passed for.
    package func add(_ rows: [Row], now: Date = Date()) {
        state.withLock { state in
            for row in rows {
                Self.remember(row.value, erasedAt: row.erasedAt, keyed: row.keyed, in: &state)
                state.lastSeq = max(state.lastSeq, row.seq)
            }
            state.entries = state.entries.filter { isRemembered(erasedAt: $0.value.erasedAt, now: now) }
            state.unkeyed = state.entries.values.count(where: { !$0.keyed })
        }
    }

    private static func remember(_ value: String, erasedAt: Date, keyed: Bool, in state: inout State) {
        let known = state.entries[value]
        if known == nil, !keyed { state.unkeyed += 1 }
        // Read again, a row keeps the later time: a replica's own insert may come before the row's commit.
        state.entries[value] = (max(erasedAt, known?.erasedAt ?? erasedAt), keyed)
    }
}
