import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import AppointmentBooker

/// X1: what the registry of the services says appointment-booker needs to start is what its configuration requires.
@Suite("appointment-booker: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those BookingConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .appointmentBooker, values: ["READING_KEY": String(repeating: "k", count: 32)]) {
                values throws(ConfigError) in _ = try BookingConfiguration(environment: EnvironmentReader(values))
            } == [])
    }
}
