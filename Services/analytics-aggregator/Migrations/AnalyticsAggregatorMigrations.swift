import Shared

/// The analytics-aggregator schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (N1-N6); until then it has only the platform tables.
enum AnalyticsAggregatorMigrations {
    static let all: [Migration] = []
}
