import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import PlacesImporter

/// X1: what the registry of the services says places-importer needs to start is what its configuration requires.
@Suite("places-importer: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those PlacesConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .placesImporter, values: [:]) { values throws(ConfigError) in
                _ = try PlacesConfiguration(environment: EnvironmentReader(values))
            } == [])
    }
}
