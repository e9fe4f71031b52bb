import PlatformCore
import PlatformEvents
import PlatformKafka
import PostgresNIO

/// How the consumer treats an error from applying an event (X2):
/// - `transient`: the database or the broker is unavailable, or the transaction lost a race (serialization
///   failure, deadlock). Nothing is wrong with the event: the partition pauses and retries with capped backoff
///   for as long as it takes, and readiness reports the pause.
/// - `permanent`: the event can never be applied as it is (it does not decode, breaks a domain rule, or
///   Postgres rejects its data). It goes to the dead-letter topic at once.
/// - `unknown`: any other error (a handler's own failure). Retried a few times, then dead-lettered.
public enum EventFailure: String, Sendable, Equatable {
    case transient
    case permanent
    case unknown

    public static func classify(_ error: any Error) -> EventFailure {
        switch error {
        case is any PermanentEventError:
            return .permanent
        case let transaction as PostgresTransactionError:
            // The first error the transaction met is the one that tells.
            let cause = transaction.beginError ?? transaction.closureError ?? transaction.commitError ?? transaction.rollbackError
            return cause.map(classify) ?? .transient
        case let postgres as PSQLError:
            return classify(postgres)
        case is KafkaError, is CancellationError, is StepTimeout:
            return .transient
        default:
            // The connection pool's errors (no connection could be made, pool shut down) live in a module
            // PostgresNIO does not re-export; they are about the database, never the event.
            return String(reflecting: type(of: error)).hasPrefix("_ConnectionPoolModule.") ? .transient : .unknown
        }
    }

    /// SQLSTATE classes: 08 connection, 40 transaction rollback (serialization, deadlock), 53 insufficient
    /// resources, 55 object not in prerequisite state (lock not available), 57 operator intervention (admin or
    /// crash shutdown), 58 system error and XX internal error are about the server, not the event; 42 (undefined
    /// table, missing privilege) is about the code or its deployment, which an operator fixes, so the partition
    /// waits rather than moving every good event to the dead-letter topic. Everything else the server reports
    /// (22 data exception, 23 integrity constraint, ...) is about the data and will fail again.
    static func classify(_ error: PSQLError) -> EventFailure {
        // Too many bind parameters depends on the data or the batch, not on the server.
        if error.code == .tooManyParameters { return .unknown }
        guard error.code == .server else { return .transient }  // connection closed, unclean shutdown, pool closed...
        let state = error.sqlState?.raw ?? ""
        let transientClasses: Set<Substring> = ["08", "40", "42", "53", "55", "57", "58", "XX"]
        return transientClasses.contains(state.prefix(2)) ? .transient : .permanent
    }
}
