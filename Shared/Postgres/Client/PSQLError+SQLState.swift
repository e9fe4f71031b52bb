import PostgresNIO

extension PSQLError {
    /// The server's SQLSTATE by postgres-nio's names (`.uniqueViolation`, `.exclusionViolation`,
    /// `.deadlockDetected`); nil for a failure on the client's side (connection closed, pool shut down).
    public var sqlState: PostgresError.Code? {
        serverInfo?[.sqlState].map { PostgresError.Code(raw: $0) }
    }
}
