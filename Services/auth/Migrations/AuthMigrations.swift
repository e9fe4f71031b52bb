import Shared

/// The auth schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (U1-U7); until then it has only the platform tables.
enum AuthMigrations {
    static let all: [Migration] = []
}
