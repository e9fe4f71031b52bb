import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import WarningDetector

/// X1: what the registry of the services says warning-detector needs to start is what its configuration requires.
@Suite("warning-detector: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those WarningConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .warningDetector, values: [:]) { values throws(ConfigError) in
                _ = try WarningConfiguration(environment: EnvironmentReader(values))
            } == [])
    }
}
