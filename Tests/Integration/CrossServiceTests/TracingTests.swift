import Foundation
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One trace across two services through the real broker (X4): a survey sign-up sent to auth with a
/// `traceparent` of the test's own trace id is written to auth's outbox with that context, published with a
/// `traceparent` header, and applied by analytics-aggregator's consumer in a span of the same trace. Both built
/// executables run as operators run them, exporting over OTLP/HTTP (JSON) to a receiver on loopback, and their
/// log lines carry the trace id.
@Suite("Tracing across the Kafka hop (X4)", .serialized)
struct TracingTests {
    @Test("X3: a caller outside TRACE_TRUSTED_CALLERS starts a trace of its own, and no span carries a secret query value")
    func untrustedTraceParentAndRedactedQuery() async throws {
        let tokens = try TestTokens()
        let forced = ExportedSpans.newTraceId()
        let secret = "s3cret-\(uniqueSuffix())"
        try await withFakeHTTPServer({ _ in .init(body: "{}") }) { receiver in
            try await withTestDatabase(schema: "auth", migrations: authMigrations) { authDB in
                let port = freePort()
                // Loopback is not trusted here, so the test is a caller from the internet.
                let auth = try ServiceProcess(
                    executable: "auth",
                    environment: ExportedSpans.serviceEnvironment(
                        db: authDB, port: port, receiver: receiver, tokens: tokens,
                        [
                            "AUTH_SIGNING_KEY": tokens.privateKeyBase64URL, "BCRYPT_COST": "4", "KAFKA_GROUP_ID": "auth-\(uniqueSuffix())",
                            "TRACE_TRUSTED_CALLERS": "192.0.2.0/24",
                        ]))
                let ready = try await eventually(timeout: .seconds(60)) { await httpStatus("http://127.0.0.1:\(port)/ready") == 200 }
                #expect(ready, "auth did not become ready: \(auth.standardError.suffix(2_000))")
                _ = try await LoopbackHTTP.send(
                    "GET", "http://127.0.0.1:\(port)/v1/dashboard/password/reset?token=\(secret)&page=2",
                    headers: ["traceparent": ExportedSpans.traceParent(forced)])
                let exported = try await eventually(timeout: .seconds(30)) {
                    receiver.requests.contains { $0.path == "/v1/traces" && $0.body.contains("token=REDACTED") }
                }
                #expect(exported, "no span recorded the request's redacted query")
                #expect(!receiver.requests.contains { $0.body.contains(secret) }, "a span carried the query's token")
                #expect(!ExportedSpans.all(in: receiver).contains { $0.traceId == forced }, "an untrusted caller joined its own trace")
                auth.terminate()
                #expect(try await auth.waitForExit(timeout: .seconds(20)) == 0)
            }
        }
    }

    @Test("X4: a request's trace continues through the outbox, the broker and the consumer of another service")
    // analytics-aggregator reads auth.users from the beginning: the event arrives in a batch with other tests'
    // events, so the check is the event's own consumer span, not the batch's.
    func traceAcrossServices() async throws {
        let tokens = try TestTokens()
        let traceId = ExportedSpans.newTraceId()
        try await createTopics(["auth.users"], partitions: 6, brokers: TestInfrastructure.current.kafkaBrokers)
        try await withFakeHTTPServer({ _ in .init(body: "{}") }) { receiver in
            try await withTestDatabase(schema: "auth", migrations: authMigrations) { authDB in
                try await withTestDatabase(schema: "analytics_aggregator", migrations: analyticsAggregatorMigrations) { analyticsDB in
                    func environment(_ db: TestDatabase, port: Int) -> [String: String] {
                        ExportedSpans.serviceEnvironment(db: db, port: port, receiver: receiver, tokens: tokens, ["LOG_LEVEL": "debug"])
                    }
                    let authPort = freePort(), analyticsPort = freePort()
                    let auth = try ServiceProcess(
                        executable: "auth",
                        environment: environment(authDB, port: authPort).merging([
                            "AUTH_SIGNING_KEY": tokens.privateKeyBase64URL, "BCRYPT_COST": "4", "KAFKA_GROUP_ID": "auth-\(uniqueSuffix())",
                        ]) { $1 })
                    let analytics = try ServiceProcess(
                        executable: "analytics-aggregator",
                        environment: environment(analyticsDB, port: analyticsPort).merging([
                            "KAFKA_GROUP_ID": "analytics-trace-\(uniqueSuffix())", "ANALYTICS_USERS_TOPIC": "auth.users",
                        ]) { $1 })
                    for (name, port, process) in [("auth", authPort, auth), ("analytics-aggregator", analyticsPort, analytics)] {
                        let ready = try await eventually(timeout: .seconds(60)) { await httpStatus("http://127.0.0.1:\(port)/ready") == 200 }
                        #expect(ready, "\(name) did not become ready: \(process.standardError.suffix(2_000))")
                    }

                    let signup = try await LoopbackHTTP.send(
                        "POST", "http://127.0.0.1:\(authPort)/v1/survey/signup",
                        headers: ["Content-Type": "application/json", "traceparent": ExportedSpans.traceParent(traceId)],
                        body: Data(#"{"email":"traced-\#(uniqueSuffix())@hotel.test","pin":"1234","pinConfirmation":"1234"}"#.utf8))
                    #expect(signup.status == 201)

                    // analytics-aggregator applied auth's user.registered in a consumer span of the request's trace, a
                    // child of auth's span that wrote the event.
                    let traced = try await ExportedSpans.waitFor(in: receiver, trace: traceId) { spans in
                        spans.contains { $0.service == "analytics-aggregator" && $0.name == "handle user.registered" && $0.kind == "consumer" }
                            && spans.contains { $0.service == "auth" && $0.kind == "server" }
                    }
                    var relayed = "?"
                    for try await (sent, all, trace) in try await authDB.client.query(
                        "SELECT count(sent_at)::int, count(*)::int, max(trace_parent) FROM outbox", logger: authDB.logger
                    ).decode((Int, Int, String?).self) { relayed = "\(sent) of \(all) sent, trace \(trace ?? "none")" }
                    #expect(
                        traced.passed,
                        "spans of \(traceId): \(traced.spans); auth's outbox: \(relayed); analytics-aggregator: \(analytics.standardError.suffix(2_000))"
                    )
                    let consumer = traced.spans.first { $0.name == "handle user.registered" }
                    #expect(traced.spans.contains { $0.service == "auth" && $0.spanId == consumer?.parentSpanId })
                    #expect(auth.standardError.contains("\"trace_id\":\"\(traceId)\""), "auth's lines do not carry the trace id")
                    auth.terminate()
                    analytics.terminate()
                    // With the exporter beside the application, SIGTERM still ends each with 0.
                    #expect(try await auth.waitForExit(timeout: .seconds(20)) == 0)
                    #expect(try await analytics.waitForExit(timeout: .seconds(20)) == 0)
                }
            }
        }
    }
}

/// Tracing's configuration, as the service reads it at start-up.
