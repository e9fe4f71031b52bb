import Shared

/// The warning-detector schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (A1-A6); until then it has only the platform tables.
enum WarningDetectorMigrations {
    static let all: [Migration] = []
}
