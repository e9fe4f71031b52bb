import Foundation
import Logging
import PostgresNIO
import TestSupport

/// The spans that services exported over OTLP/HTTP (JSON) to a `FakeHTTPServer` standing in for a collector.
package struct ExportedSpans {
    package struct Span: Sendable, CustomStringConvertible {
        package var service: String
        package var traceId: String
        package var spanId: String
        package var parentSpanId: String?
        package var name: String
        /// "server", "client", "consumer", "producer" or "internal".
        package var kind: String

        package var description: String { "\(service): \(name) (\(kind)) \(spanId) <- \(parentSpanId ?? "root")" }
    }

    /// What a built service executable needs to run on `db` and the test broker, exporting its spans over
    /// OTLP/HTTP (JSON, flushed every 200 ms) to `receiver`; `extra` adds or overrides variables.
    package static func serviceEnvironment(
        db: TestDatabase, port: Int, receiver: FakeHTTPServer, tokens: TestTokens, _ extra: [String: String]
    ) -> [String: String] {
        ServiceEnvironment(db, tokens: tokens).variables(
            httpPort: "\(port)",
            [
                "METRICS_PORT": "0", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_BSP_SCHEDULE_DELAY": "200", "OUTBOX_IDLE_INTERVAL_MS": "50",
                // The test is the trusted caller whose trace the services continue (X3: others start their own).
                "TRACE_TRUSTED_CALLERS": "127.0.0.1/32,::1/128",
            ].merging(extra) { $1 })
    }

    /// Every span in every `/v1/traces` export received so far.
    package static func all(in receiver: FakeHTTPServer) -> [Span] {
        var spans: [Span] = []
        for request in receiver.requests where request.path == "/v1/traces" {
            guard let body = try? JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any] else { continue }
            for resourceSpans in body["resourceSpans"] as? [[String: Any]] ?? [] {
                let attributes = (resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
                let service =
                    attributes.first { $0["key"] as? String == "service.name" }
                    .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String } ?? "?"
                for scope in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        guard let trace = hex(span["traceId"] as? String), let id = hex(span["spanId"] as? String) else { continue }
                        spans.append(
                            Span(
                                service: service, traceId: trace, spanId: id, parentSpanId: hex(span["parentSpanId"] as? String),
                                name: span["name"] as? String ?? "", kind: kind(span["kind"])))
                    }
                }
            }
        }
        return spans
    }

    /// Waits (up to 30 s) until the spans of `trace` satisfy `condition`; the spans seen either way.
    package static func waitFor(
        in receiver: FakeHTTPServer, trace: String, _ condition: @escaping @Sendable ([Span]) -> Bool
    ) async throws -> (passed: Bool, spans: [Span]) {
        let passed = try await eventually(timeout: .seconds(30)) { condition(all(in: receiver).filter { $0.traceId == trace }) }
        return (passed, all(in: receiver).filter { $0.traceId == trace })
    }

    package static func newTraceId() -> String { (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

    /// A `traceparent` naming a made-up parent span of `trace`, as a client outside the platform would send it.
    package static func traceParent(_ trace: String) -> String {
        "00-\(trace)-\((0..<8).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined())-01"
    }

    /// An id as OTLP/JSON carries it: hex as the specification says, or base64 as protobuf's JSON mapping (which
    /// swift-otel 1.6 writes) does. Nil for an absent or empty one (a root span's parent).
    package static func hex(_ id: String?) -> String? {
        guard let id, !id.isEmpty else { return nil }
        if id.count % 2 == 0, id.count >= 16, id.allSatisfy(\.isHexDigit) { return id.lowercased() }
        return Data(base64Encoded: id).map { $0.map { String(format: "%02x", $0) }.joined() }
    }

    /// OTLP's span kind, as a number (1 internal ... 5 consumer) or the enum's name.
    private static func kind(_ value: Any?) -> String {
        let names = [1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"]
        if let number = value as? Int { return names[number] ?? "unspecified" }
        if let text = value as? String {
            return text.replacingOccurrences(of: "SPAN_KIND_", with: "").lowercased()
        }
        return "unspecified"
    }
}
