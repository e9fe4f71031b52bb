import Dispatch
import HummingbirdBcrypt

/// bcrypt at the configured cost. Hashing takes tens to hundreds of milliseconds of CPU by design, so it runs on
/// a concurrent dispatch queue rather than blocking a thread of Swift's cooperative pool.
struct PasswordHasher: Sendable {
    let cost: UInt8
    private let queue = DispatchQueue(label: "auth.bcrypt", qos: .userInitiated, attributes: .concurrent)

    init(cost: UInt8) {
        self.cost = cost
    }

    func hash(_ secret: String) async -> String {
        let cost = self.cost
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Bcrypt.hash(secret, cost: cost)) }
        }
    }

    func verify(_ secret: String, against hash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Bcrypt.verify(secret, hash: hash)) }
        }
    }

    /// A fixed hash to compare against when the account does not exist, so that "not registered" and
    /// "wrong password" take the same time where the seed does not already tell them apart.
    static let decoy = "$2b$04$C6UzMDM.H6dfI/f/IKxGhuGMG8GbRCVHVgtfhX8Sh0bkbY5OaHuQ."
}
