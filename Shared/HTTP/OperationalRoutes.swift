import Foundation
import Hummingbird
import Prometheus

/// `/health` (the process answers), `/ready` (start-up done, Postgres and the broker reachable) and `/metrics`
/// (Prometheus text format). Orchestrators route traffic only to ready instances.
public struct OperationalRoutes: Sendable {
    let service: String
    let readiness: ReadinessProbe
    let registry: PrometheusCollectorRegistry

    public init(service: String, readiness: ReadinessProbe, registry: PrometheusCollectorRegistry) {
        self.service = service
        self.readiness = readiness
        self.registry = registry
    }

    public func add(to router: Router<PlatformRequestContext>) {
        router.get("health") { _, _ in
            HealthStatus(status: "ok", service: service, checks: nil)
        }
        router.get("ready") { _, _ -> Response in
            let checks = await readiness.check()
            let ready = checks.values.allSatisfy { $0 == "ok" }
            let body = try JSONEncoder().encode(HealthStatus(status: ready ? "ready" : "not_ready", service: service, checks: checks))
            return Response(
                status: ready ? .ok : .serviceUnavailable,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}

/// Body of `/health` and `/ready`.
public struct HealthStatus: ResponseCodable, Equatable {
    public var status: String
    public var service: String
    /// Each dependency with `ok` or why it is not.
    public var checks: [String: String]?
}
