import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import AnalyticsAggregator
@testable import AppointmentBooker
@testable import Auth
@testable import PlacesImporter
@testable import WarningDetector
@testable import WeatherFetcher

/// X1: what the registry of the services says each service needs to start is what its configuration requires: one
/// suite over the six, so a seventh service is a line here, not a copy of a file.
@Suite("Every service's required settings")
struct RequiredSettingsTests {
    /// A service, a valid value for each setting it requires, and how its configuration is made from settings.
    struct Case: Sendable, CustomTestStringConvertible {
        var service: ServiceIdentity
        var values: [String: String] = [:]
        var make: @Sendable ([String: String]) throws(ConfigError) -> Void

        var testDescription: String { service.name }
    }

    static let cases: [Case] = [
        Case(service: .weatherFetcher) { values throws(ConfigError) in _ = try WeatherConfiguration(environment: EnvironmentReader(values)) },
        Case(service: .warningDetector) { values throws(ConfigError) in _ = try WarningConfiguration(environment: EnvironmentReader(values)) },
        Case(service: .placesImporter) { values throws(ConfigError) in _ = try PlacesConfiguration(environment: EnvironmentReader(values)) },
        Case(service: .auth, values: ["AUTH_SIGNING_KEY": "a-key"]) { values throws(ConfigError) in
            _ = try AuthConfiguration(environment: EnvironmentReader(values))
        },
        Case(service: .analyticsAggregator) { values throws(ConfigError) in
            _ = try AnalyticsConfiguration(environment: EnvironmentReader(values))
        },
        Case(service: .appointmentBooker, values: ["READING_KEY": String(repeating: "k", count: 32)]) { values throws(ConfigError) in
            _ = try BookingConfiguration(environment: EnvironmentReader(values))
        },
    ]

    @Test("X1: the registry's every service is here")
    func everyService() {
        #expect(Set(Self.cases.map(\.service.name)) == Set(ServiceIdentity.all.map(\.name)))
    }

    @Test("X1: the registry's required settings are exactly those the service's configuration cannot start without", arguments: cases)
    func requiredSettings(_ sample: Case) {
        #expect(requiredSettingsProblems(of: sample.service, values: sample.values, make: sample.make) == [])
    }
}
