import Logging
import PlatformCore
import PlatformKafka
import PostgresNIO
import Tracing

extension PostgresClient {
    /// `withTransaction`, but a failure of `body` surfaces as `body`'s own error rather than wrapped in a
    /// `PostgresTransactionError`, so callers can match on their error types. Rollback failures still surface.
    /// Each transaction is a client span of the current trace (tracing on, inside a trace).
    public func inTransaction<Result>(
        logger: Logger, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        // Outside any trace no span (as for single statements, see `tracedQuery`).
        guard PlatformTracing.currentTraceParent() != nil else { return try await transaction(logger: logger, body) }
        return try await withSpan("postgres transaction", ofKind: .client) { span in
            span.attributes["db.system.name"] = "postgresql"
            return try await transaction(logger: logger, body)
        }
    }

    private func transaction<Result>(
        logger: Logger, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await withTransaction(logger: logger, body)
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error
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
