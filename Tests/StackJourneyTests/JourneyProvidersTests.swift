import Foundation
import Testing

/// What `scripts/journeys.sh` meets when the running stack was not started for the journeys (X5): the
/// journey stops before its first step and names the setting and the command that fixes it.
@Suite("Journeys against a running stack: its settings checked first")
struct JourneyProvidersTests {
    func stack(settings: String) throws -> JourneyProviders {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journey-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("journeys"), withIntermediateDirectories: true)
        try Data(settings.utf8).write(to: directory.appendingPathComponent("journeys/settings.env"))
        return JourneyProviders(environment: ["JOURNEY_STACK_DIR": directory.path])
    }

    @Test("a setting the stack lacks or holds otherwise is named, with how to restart it")
    func namesTheSetting() throws {
        let providers = try stack(settings: "# the profile\nSMTP_PORT=2525\nWEATHER_REFRESH_INTERVAL_SECONDS=600\n")
        #expect(providers.meetsRunningStack)
        let differs = #expect(throws: StackError.self) { try providers.check(["WEATHER_REFRESH_INTERVAL_SECONDS": "10"]) }
        #expect(differs?.description.contains("WEATHER_REFRESH_INTERVAL_SECONDS=600, the journey needs 10") == true)
        #expect(differs?.description.contains("STACK_JOURNEYS=1 scripts/stack.sh restart") == true)
        let lacks = #expect(throws: StackError.self) { try providers.check(["OPEN_METEO_BASE_URL": "http://127.0.0.1:1"]) }
        #expect(lacks?.description.contains("OPEN_METEO_BASE_URL=(unset)") == true)
        #expect(throws: Never.self) { try providers.check(["SMTP_PORT": "2525"]) }
    }

    @Test("a fake's port is the one in the stack's URL; without a running stack, any free one")
    func ports() throws {
        let providers = try stack(settings: "OPEN_METEO_BASE_URL=http://127.0.0.1:41234\n")
        #expect(try providers.port(for: "OPEN_METEO_BASE_URL") == 41234)
        #expect(throws: StackError.self) { try providers.port(for: "PUSH_BASE_URL") }
        #expect(try JourneyProviders(environment: [:]).port(for: "OPEN_METEO_BASE_URL") == 0)
        #expect(JourneyProviders(environment: [:]).meetsRunningStack == false)
    }
}
