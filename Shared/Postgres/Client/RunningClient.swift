import PostgresNIO

/// Runs `client` for the duration of `body`, for code outside a ServiceGroup (tools, benches, tests).
@discardableResult
public func withRunningClient<Result: Sendable>(
    _ client: PostgresClient, _ body: @Sendable (PostgresClient) async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body(client)
    }
}
