import AuthCore
import Dispatch
import HummingbirdBcrypt
import PlatformCore

/// bcrypt at the configured cost. Hashing takes tens to hundreds of milliseconds of CPU by design, so it runs on
/// a concurrent dispatch queue rather than blocking a thread of Swift's cooperative pool, and through an
/// `AdmissionGate`: at most `BCRYPT_MAX_CONCURRENCY` checks run and `BCRYPT_MAX_QUEUE` wait; one beyond that is
/// refused with `Busy` at once (a login burst cannot queue unbounded CPU work; the API answers 429 `busy`).
///
/// It runs only for an account of the flow's kind. The seeds' answers already say whether an address has one (the
/// dashboard's "not registered" and its reset's "invalid email"; the survey's `next: sign_up` at login, forgot-PIN and
/// confirmation, and "already registered" at sign-up), so a decoy hash for unknown addresses would hide nothing and
/// would only let them spend bcrypt time. Where two cases share an answer (no account, or another kind's), neither hashes.
struct PasswordHasher: SecretHashing {
    /// The pool is full: neither running nor waiting room for another check.
    struct Busy: Error, Equatable {}

    let cost: UInt8
    let gate: AdmissionGate
    private let queue = DispatchQueue(label: "auth.bcrypt", qos: .userInitiated, attributes: .concurrent)

    init(cost: UInt8, maxConcurrent: Int = 2, maxQueued: Int = 32) {
        self.cost = cost
        gate = AdmissionGate(running: maxConcurrent, waiting: maxQueued)
    }

    func hash(_ secret: String) async throws -> String {
        let (cost, queue) = (self.cost, self.queue)
        return try await admitted {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: Bcrypt.hash(secret, cost: cost)) }
            }
        }
    }

    func verify(_ secret: String, against hash: String) async throws -> Bool {
        let queue = self.queue
        return try await admitted {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: Bcrypt.verify(secret, hash: hash)) }
            }
        }
    }

    private func admitted<Value: Sendable>(_ body: () async -> Value) async throws(Busy) -> Value {
        do {
            return try await gate.run(body)
        } catch {
            throw Busy()
        }
    }
}
