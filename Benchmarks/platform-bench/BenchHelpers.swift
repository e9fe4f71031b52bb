import Logging
import PostgresNIO

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
