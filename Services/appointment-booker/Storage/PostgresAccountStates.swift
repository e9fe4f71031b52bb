import Logging
import PostgresNIO

/// `AccountStates` over the service's `accounts` and `account_entitlements` tables.
struct PostgresAccountStates: AccountStates {
    let client: PostgresClient
    let logger: Logger

    func state(of account: String) async throws -> AccountState {
        try await AccountStateStore.state(of: account, client: client, logger: logger)
    }
}
