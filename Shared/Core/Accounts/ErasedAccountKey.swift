import Crypto
import Foundation

/// The key of the hashes a service keeps of erased account ids (`ERASED_ACCOUNTS_KEY`): HMAC-SHA256 under it. An
/// unkeyed hash would let anyone who holds an id and the table find out that the account was there and is gone;
/// the keyed one tells nothing to whoever lacks the key.
public struct ErasedAccountKey: Sendable {
    private let key: SymmetricKey

    /// `secret`: the setting's text (32 characters or more, `EnvironmentReader.requiredSecret`).
    public init(secret: String) {
        key = SymmetricKey(data: Data(secret.utf8))
    }

    private init(key: SymmetricKey) {
        self.key = key
    }

    /// A key of its own for a process whose erased accounts end with it (a test, a benchmark).
    public static func random() -> ErasedAccountKey {
        ErasedAccountKey(key: SymmetricKey(size: .bits256))
    }

    /// The keyed hash of an account id (lower-case UUID text, as tokens carry it), in hex.
    public func hash(of userId: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(userId.lowercased().utf8), using: key).map { String(format: "%02x", $0) }.joined()
    }
}
