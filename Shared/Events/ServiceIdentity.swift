/// Names a service: its executable name, the Postgres schema (and role) it owns, its default HTTP port and the
/// database extensions its schema needs; the topics it writes and reads come from the topic catalogue. `all` is the
/// registry of the services: `ServiceRegistryCheck` renders the database bootstrap and the broker's access rules
/// from it and holds every other file that lists them (the stack script, compose, Kubernetes, dashboards) to it.
public struct ServiceIdentity: Sendable, Hashable {
    public let name: String
    public let schema: String
    public let defaultPort: Int
    /// Extensions created in the schema by a superuser before the service's migrations run.
    public let extensions: [String]
    /// Settings the service cannot start without, beyond the platform's (`platformRequiredSettings`): no default,
    /// so every deployment must set them. Each service's unit tests hold its `Config` type to this list.
    public let requiredSettings: [String]
    /// The most replicas its autoscaler runs (`deploy/k8s/<name>.yaml`, the KEDA overlay). At most the partitions of
    /// every topic it consumes (`ServiceRegistryCheck`): its replicas share one consumer group, and a member beyond
    /// the partitions holds none and goes not-ready (`KAFKA_UNASSIGNED_READY_LIMIT_MS`).
    public let maxReplicas: Int

    /// Settings every service needs: the key that verifies access tokens, and the key of its erased accounts' hashes.
    public static let platformRequiredSettings = ["AUTH_PUBLIC_KEY", "ERASED_ACCOUNTS_KEY"]

    /// The platform's required settings and its own.
    public var allRequiredSettings: [String] { Self.platformRequiredSettings + requiredSettings }

    /// The topics it writes, from the topic catalogue (each topic names its one producer).
    public var produces: [Topic] { TopicCatalogue.all.filter { $0.producer == name } }

    /// The topics it reads, from the topic catalogue.
    public var consumes: [Topic] { TopicCatalogue.all.filter { $0.consumers.contains(name) } }

    public init(
        name: String, schema: String, defaultPort: Int, extensions: [String] = [], requiredSettings: [String] = [], maxReplicas: Int = 6
    ) {
        self.name = name
        self.schema = schema
        self.defaultPort = defaultPort
        self.extensions = extensions
        self.requiredSettings = requiredSettings
        self.maxReplicas = maxReplicas
    }

    public static let weatherFetcher = ServiceIdentity(
        name: "weather-fetcher", schema: "weather_fetcher", defaultPort: 8081, extensions: ["pg_trgm"])
    public static let warningDetector = ServiceIdentity(name: "warning-detector", schema: "warning_detector", defaultPort: 8082)
    /// At most 3 replicas, as auth: the partitions of the worship requests it consumes.
    public static let placesImporter = ServiceIdentity(
        name: "places-importer", schema: "places_importer", defaultPort: 8083, extensions: ["postgis"], maxReplicas: 3)
    /// At most 3 replicas: the partitions of the partner applications it consumes. More needs more partitions first.
    public static let auth = ServiceIdentity(
        name: "auth", schema: "auth", defaultPort: 8084, requiredSettings: ["AUTH_SIGNING_KEY"], maxReplicas: 3)
    public static let analyticsAggregator = ServiceIdentity(name: "analytics-aggregator", schema: "analytics_aggregator", defaultPort: 8085)
    public static let appointmentBooker = ServiceIdentity(
        name: "appointment-booker", schema: "appointment_booker", defaultPort: 8086, extensions: ["btree_gist"], requiredSettings: ["READING_KEY"])

    public static let all: [ServiceIdentity] = [
        weatherFetcher, warningDetector, placesImporter, auth, analyticsAggregator, appointmentBooker,
    ]
}
