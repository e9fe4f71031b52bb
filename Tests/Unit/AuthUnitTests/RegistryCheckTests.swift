import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import Auth

/// X1: the check that holds a configuration to the registry tells when the two disagree (each service is held to it in
/// CrossServiceTests' `RequiredSettingsTests`).
@Suite("auth: the required-settings check")
struct RegistryCheckTests {
    @Test("X1: a registry that forgets a required setting, or names one the service does without, is told")
    func registryOutOfStep() {
        let make = { (values: [String: String]) throws(ConfigError) in _ = try AuthConfiguration(environment: EnvironmentReader(values)) }
        let forgets = ServiceIdentity(name: "auth", schema: "auth", defaultPort: 8084)
        #expect(requiredSettingsProblems(of: forgets, values: [:], make: make).count == 1)
        let extra = ServiceIdentity(name: "auth", schema: "auth", defaultPort: 8084, requiredSettings: ["AUTH_SIGNING_KEY", "AUTH_ISSUER"])
        #expect(
            requiredSettingsProblems(of: extra, values: ["AUTH_SIGNING_KEY": "a-key", "AUTH_ISSUER": "x"], make: make)
                == ["auth starts without AUTH_ISSUER, which the registry says it requires"])
    }
}
