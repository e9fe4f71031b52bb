import Shared

/// The weather-fetcher schema's own migrations, applied after the platform's outbox tables.
/// Its domain tables arrive with its feature issue (W1-W10); until then it has only the platform tables.
enum WeatherFetcherMigrations {
    static let all: [Migration] = []
}
