import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// Reads the accounts other replicas erased into this one's `ErasedAccounts`, every `interval`: the consumer that
/// applies a deletion runs on one replica of the service, and every replica must refuse the account's tokens.
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
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "reading erased accounts failed") {
            try await ErasedAccountsStore.refresh(erased, client: client, logger: logger)
        }
    }
}
