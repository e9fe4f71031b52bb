import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import AnalyticsAggregator

/// X1: what the registry of the services says analytics-aggregator needs to start is what its configuration requires.
@Suite("analytics-aggregator: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those AnalyticsConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .analyticsAggregator, values: [:]) { values throws(ConfigError) in
                _ = try AnalyticsConfiguration(environment: EnvironmentReader(values))
            } == [])
    }
}
