/// Each city's latest report and the refresh bookkeeping the refresh and the reader need (W3, W6): the
/// reports and their `forecast.updated` events stored together, failures recorded so the city is retried sooner.
protocol WeatherReports: Sendable {
    func latest(cityId: Int) async throws -> WeatherStore.Latest?
    /// The reports and their events in one transaction.
    func save(_ batch: [WeatherStore.Refreshed], topic: String) async throws
    func recordFailure(cityIds: [Int], error: String, retryAfter: Duration, cadence: Duration) async throws
}

extension WeatherStore: WeatherReports {}
