import Logging
import PostgresNIO

/// Where the account states auth's events left are read: Postgres in the service, a memory one in the unit tests.
protocol AccountStates: Sendable {
    /// The account's state; `AccountState.unknown` for an account no event has named.
    func state(of account: String) async throws -> AccountState
}

/// `AccountStates` over the service's `accounts` and `account_entitlements` tables.
struct PostgresAccountStates: AccountStates {
    let client: PostgresClient
    let logger: Logger

    func state(of account: String) async throws -> AccountState {
        try await AccountStateStore.state(of: account, client: client, logger: logger)
    }
}
