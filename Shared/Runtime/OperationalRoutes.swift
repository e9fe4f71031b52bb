import Foundation
import Hummingbird
import PlatformHTTP

/// `/health` (the process answers) and `/ready` (start-up done, Postgres and the broker reachable). Orchestrators
/// route traffic only to ready instances. `/metrics` is on its own listener (`MetricsListener`).
public struct OperationalRoutes: Sendable {
    let service: String
    let readiness: ReadinessProbe

    public init(service: String, readiness: ReadinessProbe) {
        self.service = service
        self.readiness = readiness
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
    }
}

/// Body of `/health` and `/ready`.
public struct HealthStatus: ResponseCodable, Equatable {
    public var status: String
    public var service: String
    /// Each dependency with `ok` or why it is not.
    public var checks: [String: String]?
}
