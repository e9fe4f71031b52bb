import Foundation
import PlatformDeploy
import PlatformEvents
import Testing
import UnitTestSupport

/// X1, X3: the broker's ACLs come from the topic catalogue, and the shipped resources are its output.
@Suite("Kafka access rules from the catalogue")
struct KafkaAccessListTests {
    @Test("X1: a service writes only what it owns and the dead letters of what it reads, and reads only what it consumes")
    func grants() {
        let grants = KafkaAccessList.grants(for: "weather-fetcher")
        let writes = Set(grants.filter { $0.resourceType == "topic" && $0.operations.contains("Write") }.map(\.name))
        let reads = Set(grants.filter { $0.resourceType == "topic" && $0.operations.contains("Read") }.map(\.name))
        #expect(writes == ["weather.forecasts", "weather.user-cities", "weather.warnings.dlq", "auth.users.dlq"])
        #expect(reads == ["weather.warnings", "auth.users"])
        #expect(grants.contains { $0.resourceType == "group" && $0.name == "weather-fetcher" && $0.patternType == "prefix" })
        // auth reads only the fortune tellers' applications (B6), in its own group.
        let auth = KafkaAccessList.grants(for: "auth")
        #expect(
            Set(auth.filter { $0.resourceType == "topic" && $0.operations.contains("Read") }.map(\.name)) == ["appointments.partner-applications"])
        #expect(auth.contains { $0.resourceType == "group" && $0.name == "auth" })
    }

    @Test("X1: every topic has a known producer and known consumers")
    func catalogueNamesServices() {
        let services = Set(ServiceIdentity.all.map(\.name))
        for topic in TopicCatalogue.all {
            #expect(services.contains(topic.producer), "\(topic.name)")
            #expect(!topic.consumers.isEmpty && Set(topic.consumers).isSubset(of: services), "\(topic.name)")
        }
    }

    @Test("X1: deploy/kafka/kafka-users.yaml is what `platformctl kafka-acls` prints (regenerate it after a catalogue change)")
    func shippedFileIsGenerated() throws {
        let shipped = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("deploy/kafka/kafka-users.yaml"), encoding: .utf8)
        #expect(shipped == KafkaAccessList.strimziUsers())
    }
}
