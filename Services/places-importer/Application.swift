import Hummingbird
import Logging
import Prometheus
import Shared

/// Builds places-importer from its environment: the platform runtime (Postgres, Kafka, outbox relay, operational routes)
/// plus this service's routes and event handlers. Tests call this same function with test configuration.
func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .placesImporter, environment: environment, migrations: PlacesImporterMigrations.all, registry: registry, logger: logger)
    let router = runtime.makeRouter()
    return runtime.makeApplication(router: router)
}
