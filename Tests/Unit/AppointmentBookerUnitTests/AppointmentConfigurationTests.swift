import Foundation
import PlatformCore
import Testing
import UnitTestSupport

@testable import AppointmentBooker

/// No secret has a public default (X1): readings keyed by a word everyone knows could be computed ahead anywhere.
@Suite("appointment-booker configuration")
struct AppointmentConfigurationTests {
    @Test("X1: READING_KEY is required and at least 32 characters; a short one is named, never shown")
    func readingKeyRequired() throws {
        #expect(throws: ConfigError.missing(variable: "READING_KEY")) {
            try BookingConfiguration(environment: EnvironmentReader([:]))
        }
        #expect {
            try BookingConfiguration(environment: EnvironmentReader(["READING_KEY": "horoscope-readings"]))
        } throws: { error in
            guard case .malformed(let variable, _, _) = error as? ConfigError else { return false }
            return variable == "READING_KEY" && "\(error)".contains("READING_KEY") && !"\(error)".contains("horoscope-readings")
        }
        let configured = try BookingConfiguration(environment: EnvironmentReader(["READING_KEY": TestSecrets.readingKey]))
        #expect(configured.readingKey == TestSecrets.readingKey)
    }
}
