import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// Reads the accounts other replicas erased into this one's `ErasedAccounts`, every `interval`: the consumer that
/// applies a deletion runs on one replica of the service, and every replica must refuse the account's tokens. Once an
/// hour it deletes the rows from before the key that have aged out (`ErasedAccountsStore.forgetUnkeyed`).
package struct ErasedAccountsRefresh: Service {
    let erased: ErasedAccounts
    let client: PostgresClient
    let interval: Duration
    let startGate: StartGate
    let logger: Logger

    package init(erased: ErasedAccounts, client: PostgresClient, interval: Duration, startGate: StartGate, logger: Logger) {
        self.erased = erased
        self.client = client
        self.interval = interval
        self.startGate = startGate
        self.logger = logger
    }

    package func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "reading erased accounts failed") {
                    try await ErasedAccountsStore.refresh(erased, client: client, logger: logger)
                }
            }
            group.addTask {
                await runPeriodically(
                    startGate: startGate, interval: .seconds(3_600), logger: logger, failure: "forgetting unkeyed erased accounts failed"
                ) {
                    let forgotten = try await ErasedAccountsStore.forgetUnkeyed(client: client, logger: logger)
                    if forgotten > 0 { logger.info("forgot erased accounts from before the key", metadata: ["rows": "\(forgotten)"]) }
                }
            }
        }
    }
}
