import Hummingbird
import Logging
import Prometheus
import Shared

/// Each service's own `buildApplication`, by identity. The functions share a name in six modules, so each
/// is imported in a file of its own (see `Builders/`) and collected here.
typealias ApplicationBuilder = @Sendable (EnvironmentReader, PrometheusCollectorRegistry, Logger) async throws -> any ApplicationProtocol

let serviceBuilders: [(ServiceIdentity, ApplicationBuilder)] = [
    (.weatherFetcher, buildWeatherFetcher),
    (.warningDetector, buildWarningDetector),
    (.placesImporter, buildPlacesImporter),
    (.auth, buildAuth),
    (.analyticsAggregator, buildAnalyticsAggregator),
    (.appointmentBooker, buildAppointmentBooker),
]
