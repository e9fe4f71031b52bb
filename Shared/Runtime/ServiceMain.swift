import CCrashDescriptors
import Foundation
import Hummingbird
import Logging
import Metrics
import PlatformCore
import PlatformEvents
import Prometheus
import ServiceLifecycle

/// The whole of a service's `main.swift`: bootstrap logging and metrics once for the process, build the
/// application from the environment, and run it until SIGTERM/SIGINT. A configuration error ends the process
/// with exit code 2 and a message naming the variable, before anything starts.
///
/// | variable | default |
/// |---|---|
/// | `LOG_FORMAT` | `json`: one object per line on stderr (`time`, `level`, `logger`, `message`, `source`, then the metadata such as `userId`, `eventId`, `topic`); `text`: swift-log's plain lines |
public enum ServiceMain {
    public typealias Builder = @Sendable (EnvironmentReader, PrometheusCollectorRegistry, Logger) async throws -> any ApplicationProtocol

    public static func run(_ identity: ServiceIdentity, build: Builder) async {
        // A crash hands the process to the runtime's crash reporter; it must not take the sockets with it.
        _ = crash_descriptors_install()
        let environment = EnvironmentReader()
        let jsonLogs: Bool
        do {
            jsonLogs = try environment.parsed("LOG_FORMAT", expected: "json or text") { ["json": true, "text": false][$0.lowercased()] } ?? true
        } catch {
            FileHandle.standardError.write(Data("\(identity.name): \(error)\n".utf8))
            exit(2)
        }
        // Every line carries the current span's trace_id and span_id when tracing is on (PlatformTracing).
        LoggingSystem.bootstrap(
            { label, metadataProvider in
                // The Logger's own level filters, so every handler passes everything.
                if jsonLogs {
                    var handler = JSONLogHandler(label: label)
                    handler.logLevel = .trace
                    handler.metadataProvider = metadataProvider
                    return handler
                }
                var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
                handler.logLevel = .trace
                return handler
            }, metadataProvider: PlatformTracing.loggingMetadataProvider)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: identity.name)
        do {
            let tracing = try PlatformTracing.bootstrap(service: identity.name, environment: environment)
            let app = try await build(environment, registry, logger)
            if let tracing {
                // The exporter stops after the application (reverse order), so the last spans are sent.
                let group = ServiceGroup(
                    configuration: .init(
                        services: [.init(service: tracing), .init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint],
                        logger: logger))
                try await group.run()
            } else {
                try await app.runService()
            }
        } catch let error as ConfigError {
            FileHandle.standardError.write(Data("\(identity.name): \(error)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("\(identity.name): fatal: \(String(reflecting: error))\n".utf8))
            exit(1)
        }
    }
}
