import Foundation
import Logging
import PlatformCore
import ServiceLifecycle

/// Deletes install accounts that did nothing (`IdleInstalls`) once `INSTALL_IDLE_DAYS` old (U8): an account is made
/// for every app launch without a form, so the ones nobody came back to, and that nobody can sign in to any more,
/// would otherwise pile up as members forever. Each goes as any deleted account does (`user.deleted`, so every
/// service erases what it holds).
struct IdleInstallExpiry: Service {
    let idle: IdleInstalls
    let ends: AccountEndStore
    let idleDays: Int
    let startGate: StartGate
    let logger: Logger
    var interval: Duration = .seconds(3_600)
    var batchSize = 200

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "idle install expiry failed") {
            let deleted = try await expireOnce()
            if deleted > 0 { logger.info("idle install accounts deleted", metadata: ["count": "\(deleted)"]) }
        }
    }

    /// Deletes every idle install account there is now, a batch at a time; how many.
    func expireOnce() async throws -> Int {
        var deleted = 0
        while !Task.isCancelled {
            let batch = try await idle.made(moreThan: idleDays, ago: batchSize)
            for id in batch where try await ends.delete(id, by: .expiry) { deleted += 1 }
            if batch.count < batchSize { break }
        }
        return deleted
    }
}
