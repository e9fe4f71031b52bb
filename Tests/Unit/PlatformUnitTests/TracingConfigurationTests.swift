import Testing

@testable import PlatformCore

/// When the OTLP exporter is on, and the settings it refuses (X4).
@Suite("Tracing configuration")
struct TracingConfigurationTests {
    @Test("X4: without an OTLP endpoint, or with OTEL_SDK_DISABLED, tracing is off; a gRPC exporter is refused by name")
    func configuration() throws {
        #expect(try PlatformTracing.bootstrap(service: "t", environment: EnvironmentReader([:])) == nil)
        #expect(
            try PlatformTracing.bootstrap(
                service: "t", environment: EnvironmentReader(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"]))
                == nil)
        #expect(
            throws: ConfigError.malformed(
                variable: "OTEL_EXPORTER_OTLP_PROTOCOL", value: "grpc", expected: "http/protobuf or http/json (the gRPC exporter is not built)")
        ) {
            try PlatformTracing.bootstrap(
                service: "t",
                environment: EnvironmentReader(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"]))
        }
    }
}
