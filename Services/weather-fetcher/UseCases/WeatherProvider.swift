import Foundation

/// A source of weather data (W6). Each provider decodes its own wire format into `WeatherReport`s.
package protocol WeatherProvider: Sendable {
    /// The name stored with the data and shown to clients, e.g. `open-meteo`.
    var name: String { get }
    /// How many cities one request may carry.
    var maxCitiesPerRequest: Int { get }
    /// Reports for `cities` (at most `maxCitiesPerRequest`), keyed by city id. Throws `ProviderError`.
    func fetch(_ cities: [City]) async throws -> [Int: WeatherReport]
}
