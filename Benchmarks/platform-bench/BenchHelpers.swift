import Foundation
import Logging
import PostgresNIO
import TestSupport
import UnitTestSupport

/// The integer the query's first row starts with (0 without rows): the benches poll counts with it.
func queryInt(_ client: PostgresClient, _ sql: String) async throws -> Int {
    let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "bench"))
    for try await value in rows.decode(Int.self) { return value }
    return 0
}

/// The value below which the fraction `p` of `values` lies (nearest rank); 0 for no values.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

/// A bench that starts a release service on its Postgres and broker.
protocol ServiceBench {
    var brokers: String { get }
    var postgresHost: String { get }
    var postgresPort: Int { get }
    var postgresUser: String { get }
}

extension ServiceBench {
    /// What the service needs to reach `database`, the broker and the bench's token key (`ServiceEnvironment`).
    func serviceEnvironment(database: String, tokens: TestTokens) -> ServiceEnvironment {
        ServiceEnvironment(
            postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser, database: database, brokers: brokers,
            publicKey: tokens.publicKeyBase64URL)
    }
}

/// A release service started for the bench: the bench's own environment (a profiler's settings, say) under the
/// service's, `/metrics` on any free port (the HTTP port + 1000 may be taken by a second instance), its log on the
/// bench's standard error.
func startService(binary: String, environment: [String: String]) throws -> ServiceProcess {
    try ServiceProcess(
        executableURL: URL(fileURLWithPath: binary),
        environment: ProcessInfo.processInfo.environment.merging(["METRICS_PORT": "0"]) { $1 }.merging(environment) { $1 },
        passingStandardError: true)
}
