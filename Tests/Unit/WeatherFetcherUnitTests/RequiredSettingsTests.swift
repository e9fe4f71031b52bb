import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import WeatherFetcher

/// X1: what the registry of the services says weather-fetcher needs to start is what its configuration requires.
@Suite("weather-fetcher: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those WeatherConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .weatherFetcher, values: [:]) { values throws(ConfigError) in
                _ = try WeatherConfiguration(environment: EnvironmentReader(values))
            } == [])
    }
}
