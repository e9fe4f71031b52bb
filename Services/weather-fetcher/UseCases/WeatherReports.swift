/// Each city's latest report and the refresh bookkeeping the refresh and the reader need (W3, W6): the
/// reports and their `forecast.updated` events stored together, failures recorded so the city is retried sooner.
package protocol WeatherReports: Sendable {
    func latest(cityId: Int) async throws -> LatestWeather?
    /// The reports and their events in one transaction.
    func save(_ batch: [RefreshedCity], topic: String) async throws
    func recordFailure(cityIds: [Int], error: String, retryAfter: Duration, cadence: Duration) async throws
}
