import Shared

/// The places-importer schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (P1-P4); until then it has only the platform tables.
enum PlacesImporterMigrations {
    static let all: [Migration] = []
}
