/// Names a service: its executable name, the Postgres schema (and role) it owns, and its default HTTP port.
public struct ServiceIdentity: Sendable, Hashable {
    public let name: String
    public let schema: String
    public let defaultPort: Int

    public init(name: String, schema: String, defaultPort: Int) {
        self.name = name
        self.schema = schema
        self.defaultPort = defaultPort
    }

    public static let weatherFetcher = ServiceIdentity(name: "weather-fetcher", schema: "weather_fetcher", defaultPort: 8081)
    public static let warningDetector = ServiceIdentity(name: "warning-detector", schema: "warning_detector", defaultPort: 8082)
    public static let placesImporter = ServiceIdentity(name: "places-importer", schema: "places_importer", defaultPort: 8083)
    public static let auth = ServiceIdentity(name: "auth", schema: "auth", defaultPort: 8084)
    public static let analyticsAggregator = ServiceIdentity(name: "analytics-aggregator", schema: "analytics_aggregator", defaultPort: 8085)
    public static let appointmentBooker = ServiceIdentity(name: "appointment-booker", schema: "appointment_booker", defaultPort: 8086)

    public static let all: [ServiceIdentity] = [
        weatherFetcher, warningDetector, placesImporter, auth, analyticsAggregator, appointmentBooker,
    ]
}
