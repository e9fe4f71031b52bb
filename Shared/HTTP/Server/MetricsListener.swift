import Hummingbird
import Logging
import NIOCore
import PlatformCore
import Prometheus
import ServiceLifecycle

/// `/metrics` (Prometheus text format) on a listener of its own (X4): the public listener
/// sits behind the ingress, this one is reached by the scraper inside the cluster only, so the counters of every
/// route and consumer are never published to the internet.
public final class MetricsListener: Service, Sendable {
    let host: String
    let port: Int
    let registry: PrometheusCollectorRegistry
    let logger: Logger

    public init(host: String, port: Int, registry: PrometheusCollectorRegistry, logger: Logger) {
        self.host = host
        self.port = port
        self.registry = registry
        self.logger = logger
    }

    public func run() async throws {
        let router = Router()
        let registry = self.registry
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "metrics"),
            onServerRunning: { _ in SocketsCloseOnExec.markAll() },
            logger: logger)
        // Nested in the service's group: its graceful shutdown reaches this one too.
        try await app.run()
    }
}
