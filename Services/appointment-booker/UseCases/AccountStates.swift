/// Where the account states auth's events left are read: Postgres in the service, a memory one in the unit tests.
package protocol AccountStates: Sendable {
    /// The account's state; `AccountState.unknown` for an account no event has named.
    func state(of account: String) async throws -> AccountState
}
