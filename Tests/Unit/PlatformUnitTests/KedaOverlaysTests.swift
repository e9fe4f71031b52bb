import Foundation
import PlatformDeploy
import Testing

@testable import PlatformEvents

/// The KEDA overlays come from the registry and the catalogue (X4: each service scales horizontally): a consuming
/// service scales on the lag of every topic it reads, unless one of them has fewer partitions than its replicas.
@Suite("KEDA overlays from the registry")
struct KedaOverlaysTests {
    @Test("a service scales on every topic it consumes; one reading a 3-partition topic keeps its CPU autoscaler")
    func scaledServices() {
        let scaled = KedaOverlays.lagScaled(ServiceIdentity.all)
        #expect(scaled.map(\.service.name) == ["weather-fetcher", "warning-detector", "analytics-aggregator", "appointment-booker"])
        for (service, topics) in scaled {
            #expect(topics.map(\.name) == service.consumes.map(\.name))
        }
        #expect(!scaled.contains { $0.service.name == "auth" })
    }

    @Test("the scaled objects hold one kafka trigger per consumed topic and the SASL overlay authenticates each")
    func triggersAndAuthentication() throws {
        let files = Dictionary(uniqueKeysWithValues: KedaOverlays.files(for: ServiceIdentity.all).map { ($0.path, $0.text) })
        let scaledObjects = try #require(files["deploy/overlays/keda/scaled-objects.yaml"])
        let sasl = try #require(files["deploy/overlays/keda-sasl/kustomization.yaml"])
        let consumed = KedaOverlays.lagScaled(ServiceIdentity.all).reduce(0) { $0 + $1.topics.count }
        #expect(scaledObjects.components(separatedBy: "- type: kafka").count - 1 == consumed)
        #expect(sasl.components(separatedBy: "/authenticationRef").count - 1 == consumed)
        #expect(scaledObjects.contains("consumerGroup: warning-detector\n        topic: appointments.bookings"))
    }

    @Test("a service reading a topic with fewer partitions than its replicas is left to CPU")
    func fewPartitions() {
        let places = ServiceIdentity(name: "places-importer", schema: "places_importer", defaultPort: 8083)
        #expect(KedaOverlays.lagScaled([places]).isEmpty)
    }
}
