import Foundation

/// One secret (a password or a PIN) checked against an account within its try limits (U1, U4, U7), the part the
/// logins share: the account's tries at this address and its ceiling are taken before the check, every try is given
/// back when the check never ran, and the address's and the ceiling's when the secret matched.
package struct LimitedSecretCheck: Sendable {
    package let tries: TryLedger
    package let hasher: any SecretHashing
    /// Wrong secrets per account from every address together.
    package let ceiling: AttemptLimit

    package init(tries: TryLedger, hasher: any SecretHashing, ceiling: AttemptLimit) {
        self.tries = tries
        self.hasher = hasher
        self.ceiling = ceiling
    }

    /// The account's own tries at this address are used up until `until`.
    package struct OwnTriesUsedUp: Error, Equatable {
        package let until: Date

        package init(until: Date) {
            self.until = until
        }
    }

    /// nil when `secret` matches `hash`; otherwise the tries of `kind` the account has left at this address.
    /// `addressTry`: the caller's try against its address, taken before the account was looked up.
    /// `subject`: the account's tries at this address (`AttemptSubject.ownerAndAddress`).
    package func check(
        _ secret: String, against hash: String, account: UUID, addressTry: AttemptTry, kind: AttemptKind, subject: String,
        limit: AttemptLimit
    ) async throws -> Int? {
        let ownTry: AttemptTry
        do {
            ownTry = try await tries.take(kind, subject: subject, limit: limit)
        } catch {
            try await tries.release(addressTry)
            if let exhausted = error as? TryLedger.Exhausted { throw OwnTriesUsedUp(until: exhausted.until) }
            throw error
        }
        let ceilingTry = try await tries.givingBack([addressTry, ownTry]) {
            try await tries.take(.accountCeiling, subject: account.uuidString, limit: ceiling)
        }
        let matches = try await tries.givingBack([addressTry, ownTry, ceilingTry]) { try await hasher.verify(secret, against: hash) }
        guard matches else { return ownTry.triesLeftIfFailed }
        try await tries.release(addressTry, ceilingTry)
        return nil
    }
}
