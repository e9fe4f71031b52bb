import Logging
import PostgresNIO
import Tracing

extension PostgresClient {
    /// `withTransaction`, but a failure of `body` surfaces as `body`'s own error rather than wrapped in a
    /// `PostgresTransactionError`, so callers can match on their error types. Rollback failures still surface.
    /// Each transaction is a client span of the current trace (tracing on).
    public func inTransaction<Result>(
        logger: Logger, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await withSpan("postgres transaction", ofKind: .client) { span in
            span.attributes["db.system"] = "postgresql"
            do {
                return try await withTransaction(logger: logger, body)
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error
            }
        }
    }
}

extension AsyncSequence {
    /// Every element, in order. (Named apart from NIO's `collect(upTo:)`, which shadows a plain `collect()`.)
    public func collectAll() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
