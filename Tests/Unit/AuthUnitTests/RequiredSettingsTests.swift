import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import Auth

/// X1: what the registry of the services says auth needs to start is what its configuration requires.
@Suite("auth: required settings")
struct RequiredSettingsTests {
    @Test("X1: the registry's required settings are exactly those AuthConfiguration cannot start without")
    func requiredSettings() {
        #expect(
            requiredSettingsProblems(of: .auth, values: ["AUTH_SIGNING_KEY": "a-key"]) { values throws(ConfigError) in
                _ = try AuthConfiguration(environment: EnvironmentReader(values))
            } == [])
    }

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
