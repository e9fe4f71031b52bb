import Foundation
import HummingbirdBcrypt
import JWTKit
import PlatformHTTP

/// The two costs of the auth path: a password check at the configured bcrypt cost (what bounds dashboard
/// logins per second: the database work of a login is a few queries next to it) and an access-token check,
/// which every service's middleware does per request. Both on two concurrent workers, one per core.
struct AuthBench {
    let bcryptCost: UInt8
    let seconds: Double = 3

    func passwordChecksPerSecond() async -> Double {
        let hash = Bcrypt.hash("Start1234", cost: bcryptCost)
        return await rate { _ = Bcrypt.verify("Start1234", hash: hash) }
    }

    func tokenVerificationsPerSecond() async throws -> Double {
        let pair = try Ed25519KeyPair.generate()
        let signer = JWTKeyCollection()
        await signer.add(eddsa: try EdDSA.PrivateKey(d: pair.privateKey, curve: .ed25519))
        let now = Date()
        let token = try await signer.sign(
            AccessTokenClaims(
                userId: "u1", role: .user, entitlements: ["tarot"], issuer: "bench", issuedAt: now,
                expiresAt: now.addingTimeInterval(3_600)))
        let verifier = try await AccessTokenVerifier(publicKey: pair.publicKey, issuer: "bench")
        return await rateAsync { _ = try? await verifier.verify(token) }
    }

    private func rate(_ work: @escaping @Sendable () -> Void) async -> Double {
        await rateAsync { work() }
    }

    private func rateAsync(_ work: @escaping @Sendable () async -> Void) async -> Double {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let total = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        await work()
                        count += 1
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        return Double(total) / (ContinuousClock.now - start).seconds
    }
}
