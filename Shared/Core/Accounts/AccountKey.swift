import Foundation

/// How an account id is stored and compared here: auth's ids are UUIDs, which tokens and events may spell in
/// either case, so a UUID is kept in lower case; any other subject (a test's, a guest's) as it is.
public enum AccountKey {
    public static func of(_ id: UUID) -> String { id.uuidString.lowercased() }

    public static func of(_ subject: String) -> String { UUID(uuidString: subject).map(of) ?? subject }
}
