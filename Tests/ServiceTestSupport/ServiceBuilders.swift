import Hummingbird
import Logging
import PlatformCore
import PlatformEvents
import Prometheus
import TestSupport

/// Each service's own `buildApplication`, by identity. The functions share a name in six modules, so each
/// is imported in a file of its own (see `Builders/`) and collected here.
package typealias ApplicationBuilder = @Sendable (EnvironmentReader, PrometheusCollectorRegistry, Logger) async throws -> any ApplicationProtocol

package let serviceBuilders: [(ServiceIdentity, ApplicationBuilder)] = [
    (.weatherFetcher, buildWeatherFetcher),
    (.warningDetector, buildWarningDetector),
    (.placesImporter, buildPlacesImporter),
    (.auth, buildAuth),
    (.analyticsAggregator, buildAnalyticsAggregator),
    (.appointmentBooker, buildAppointmentBooker),
]

/// The six services as their harnesses start them (`ServiceHarness`).
extension ServiceUnderTest {
    package static let weatherFetcher = ServiceUnderTest(
        label: "weather", schema: "weather_fetcher", migrations: weatherFetcherMigrations, logLevelVariable: "WEATHER_TEST_LOG_LEVEL",
        build: buildWeatherFetcher)
    package static let warningDetector = ServiceUnderTest(
        label: "warnings", schema: "warning_detector", migrations: warningDetectorMigrations, logLevelVariable: "WARNING_TEST_LOG_LEVEL",
        build: buildWarningDetector)
    package static let placesImporter = ServiceUnderTest(
        label: "places", schema: "places_importer", migrations: placesImporterMigrations, logLevelVariable: "PLACES_TEST_LOG_LEVEL",
        build: buildPlacesImporter)
    package static let appointmentBooker = ServiceUnderTest(
        label: "appointments", schema: "appointment_booker", migrations: appointmentBookerMigrations,
        logLevelVariable: "BOOKING_TEST_LOG_LEVEL", build: buildAppointmentBooker)
    package static let auth = ServiceUnderTest(
        label: "auth", schema: "auth", migrations: authMigrations, logLevelVariable: "AUTH_TEST_LOG_LEVEL", build: buildAuth)
    package static let analyticsAggregator = ServiceUnderTest(
        label: "analytics", schema: "analytics_aggregator", migrations: analyticsAggregatorMigrations,
        logLevelVariable: "ANALYTICS_TEST_LOG_LEVEL", build: buildAnalyticsAggregator)
}
