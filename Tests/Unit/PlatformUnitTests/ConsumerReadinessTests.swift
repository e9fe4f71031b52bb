import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

/// What `/ready` says of a service's consumers (X4), from their health as the consumers report it.
@Suite("Readiness of the consumers")
struct ConsumerReadinessTests {
    static func check(_ consumers: [ConsumerHealth]) -> String {
        ReadinessProbe.checkConsumers(consumers, pauseLimit: .seconds(30), unassignedLimit: .seconds(60))
    }

    @Test("X4: a member without a partition past the limit is not ready; within it, or holding one, it is")
    func unassignedMember() {
        let stuck = ConsumerHealth(topics: ["weather.user-cities"], unassignedSince: { .now - .seconds(90) })
        let joining = ConsumerHealth(topics: ["weather.user-cities"], unassignedSince: { .now - .seconds(10) })
        let holding = ConsumerHealth(topics: ["weather.user-cities"], unassignedSince: { nil })
        #expect(Self.check([holding, stuck]).contains("held no partition for 90 s"))
        #expect(Self.check([stuck]).contains("weather.user-cities"))
        #expect(Self.check([joining, holding]) == "ok")
    }

    @Test("X4: a missing topic is named before anything else")
    func missingTopicFirst() {
        let missing = ConsumerHealth(topics: ["auth.users"], missingTopicSince: { .now - .seconds(20) }, unassignedSince: { .now - .seconds(90) })
        #expect(Self.check([missing]).contains("missing"))
    }
}
