import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Names a telemetry batch's accounts by their pseudonyms (`AccountPseudonyms`), made on first use.
struct PostgresAccountNaming: AccountNaming {
    let client: PostgresClient
    let erased: ErasedAccounts
    let logger: Logger

    func pseudonyms(of accounts: Set<String>) async throws -> [String: String] {
        try await client.inTransaction(logger: logger) { connection in
            try await AccountPseudonyms.resolve(accounts, erased: erased, on: connection, logger: logger)
        }
    }
}
