import Shared

/// The appointment-booker schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (B1-B4); until then it has only the platform tables.
enum AppointmentBookerMigrations {
    static let all: [Migration] = []
}
