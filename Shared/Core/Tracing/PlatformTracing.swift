import Logging
import OTel
import ServiceContextModule
import ServiceLifecycle
import Synchronization
import Tracing

/// Traces across the services (X4): W3C trace context from an incoming request (Hummingbird's
/// `TracingMiddleware`) travels with each outbox row, as a `traceparent` Kafka header, into the consumer's
/// span in the receiving service. Spans are exported with swift-otel over OTLP/HTTP when the standard
/// `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_SERVICE_NAME`... as the
/// OpenTelemetry specification names them), unless `OTEL_SDK_DISABLED` is `true`; without it the no-op tracer costs
/// nothing and nothing is traced.
public enum PlatformTracing {
    /// Bootstraps the process's tracer when an OTLP endpoint is configured; the exporter's service, to run
    /// beside the application, or nil when tracing is off. Call once per process.
    public static func bootstrap(service name: String, environment: EnvironmentReader) throws -> (any Service)? {
        guard let endpoint = environment.string("OTEL_EXPORTER_OTLP_ENDPOINT"), !endpoint.isEmpty else { return nil }
        if environment.string("OTEL_SDK_DISABLED")?.lowercased() == "true" { return nil }
        // Only the OTLP/HTTP exporter is built: swift-otel traps on a gRPC one it does not have, so refuse it here.
        for variable in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            if let value = environment.string(variable), !["http/protobuf", "http/json"].contains(value.lowercased()) {
                throw ConfigError.malformed(variable: variable, value: value, expected: "http/protobuf or http/json (the gRPC exporter is not built)")
            }
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = name
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        isOn.store(true, ordering: .releasing)
        return backend.service
    }

    /// `trace_id`, `span_id` and `trace_flags` of the current span on every log line (when tracing is on).
    public static var loggingMetadataProvider: Logger.MetadataProvider { OTel.makeLoggingMetadataProvider() }

    /// Whether `bootstrap` turned tracing on in this process. With it off, asking for the current trace (every
    /// statement and outbox row does) is one load instead of an injection into a fresh dictionary.
    private static let isOn = Atomic<Bool>(false)

    /// The current span's context as a `traceparent` value; nil outside a span (or with tracing off).
    public static func currentTraceParent() -> String? {
        guard isOn.load(ordering: .acquiring), let context = ServiceContext.current else { return nil }
        return traceParent(of: context)
    }

    /// A span's (or any) context as a `traceparent` value; nil when it holds no span (or tracing is off).
    public static func traceParent(of context: ServiceContext) -> String? {
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: HeaderInjector())
        return carrier["traceparent"]
    }

    /// The context a `traceparent` (and `tracestate`) value names, to continue its trace.
    public static func context(traceParent: String?, traceState: String? = nil) -> ServiceContext {
        var context = ServiceContext.topLevel
        guard let traceParent else { return context }
        var carrier = ["traceparent": traceParent]
        if let traceState { carrier["tracestate"] = traceState }
        InstrumentationSystem.instrument.extract(carrier, into: &context, using: HeaderExtractor())
        return context
    }

    struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    struct HeaderExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
