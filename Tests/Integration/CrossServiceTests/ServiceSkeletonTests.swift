import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformRuntime
import Prometheus
import ServiceTestSupport
import TestSupport
import Testing

@Suite("Every service's HTTP skeleton, built by its own buildApplication against real Postgres and the broker")
struct ServiceSkeletonTests {
    @Test(
        "X4: health, readiness after migrations, metrics on their own port only, JSON errors for unknown routes",
        arguments: serviceBuilders.map(\.0))
    func operationalRoutes(identity: ServiceIdentity) async throws {
        let build = serviceBuilders.first { $0.0 == identity }!.1
        let tokens = try TestTokens()
        let metricsPort = freePort()
        try await withTestDatabase(schema: identity.schema, migrate: false) { db in
            let environment = EnvironmentReader(
                ServiceEnvironment(db, tokens: tokens).variables([
                    "METRICS_PORT": "\(metricsPort)", "KAFKA_GROUP_ID": "skeleton-\(uniqueSuffix())", "READING_KEY": TestSecrets.readingKey,
                    "AUTH_SIGNING_KEY": tokens.privateKeyBase64URL, "LOG_LEVEL": "warning",
                ]))
            let app = try await build(environment, PrometheusCollectorRegistry(), Logger(label: identity.name))
            try await app.test(.live) { client in
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .ok)
                    let body = try JSONDecoder().decode(HealthStatus.self, from: Data(buffer: response.body))
                    #expect(body.service == identity.name)
                }
                let ready = try await eventually(timeout: .seconds(20)) {
                    try await client.execute(uri: "/ready", method: .get) { $0.status == .ok }
                }
                try await client.execute(uri: "/ready", method: .get) { response in
                    #expect(ready, "not ready: \(String(buffer: response.body))")
                }
                // The public listener never exposes the counters; the scraper's port does.
                try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .notFound)
                }
                let scraped = try await LoopbackHTTP.send("GET", "http://127.0.0.1:\(metricsPort)/metrics")
                #expect(scraped.status == 200)
                #expect(scraped.headers.first(name: "content-type")?.hasPrefix("text/plain") == true)
                try await client.execute(uri: "/no/such/route", method: .get) { response in
                    #expect(response.status == .notFound)
                    let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                    #expect(body.error.code == "not_found")
                }
            }
            // Migrations ran into the service's own schema.
            let rows = try await db.client.query(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = \(identity.schema) AND table_name = 'outbox'",
                logger: Logger(label: "test"))
            for try await count in rows.decode(Int.self) { #expect(count == 1) }
        }
    }
}
