/// An `INSERT ... RETURNING` (or upsert) answered no row, which Postgres does not do for a statement that
/// inserted or updated one: thrown instead of trapping on an empty result.
public struct MissingReturnedRow: Error, CustomStringConvertible {
    public let statement: String

    public init(_ statement: String) {
        self.statement = statement
    }

    public var description: String { "\(statement) returned no row" }
}
