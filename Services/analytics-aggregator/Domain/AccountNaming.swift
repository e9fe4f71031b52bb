/// How the telemetry ingest names accounts on the kept topic (U9): by a pseudonym of each account's own, which goes
/// with the account. An account erased already has none and is left out of the answer.
package protocol AccountNaming: Sendable {
    func pseudonyms(of accounts: Set<String>) async throws -> [String: String]
}
