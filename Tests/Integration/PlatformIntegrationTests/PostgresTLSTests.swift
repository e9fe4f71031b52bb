import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

/// `POSTGRES_TLS` against a Postgres of the test's own that serves TLS with a certificate made for the run.
@Suite("Postgres connections over TLS", .serialized)
struct PostgresTLSTests {
    let logger = Logger(label: "postgres-tls-test")

    @Test("X1: require encrypts; verify-full encrypts and checks the server against the CA file; a wrong CA is refused; disable stays plain")
    func postgresTLS() async throws {
        let certificate = try TestCertificate()
        let stranger = try TestCertificate()
        let cluster = try PostgresCluster(certificate: certificate)
        defer { cluster.destroy() }
        func configuration(_ settings: [String: String]) throws -> PostgresConfiguration {
            try PostgresConfiguration(
                environment: EnvironmentReader(
                    ["POSTGRES_PORT": "\(cluster.port)", "POSTGRES_USER": "postgres", "POSTGRES_DATABASE": "postgres"]
                        .merging(settings) { $1 }),
                defaultSchema: "public")
        }
        #expect(try await encrypted(configuration(["POSTGRES_HOST": "127.0.0.1", "POSTGRES_TLS": "require"])) == true)
        #expect(
            try await encrypted(
                configuration(["POSTGRES_HOST": "localhost", "POSTGRES_TLS": "verify-full", "POSTGRES_TLS_CA_FILE": certificate.certificateFile]))
                == true)
        #expect(try await encrypted(configuration(["POSTGRES_HOST": "127.0.0.1"])) == false, "disable is the default")
        await #expect(throws: (any Error).self, "a server whose certificate the CA file did not sign") {
            _ = try await encrypted(
                configuration(["POSTGRES_HOST": "localhost", "POSTGRES_TLS": "verify-full", "POSTGRES_TLS_CA_FILE": stranger.certificateFile]))
        }
    }

    @Test("X1: POSTGRES_TLS takes disable, require or verify-full; a CA file only with verify-full")
    func postgresTLSConfiguration() throws {
        let certificate = try TestCertificate()
        for broken in [
            ["POSTGRES_TLS": "prefer"], ["POSTGRES_TLS": "require", "POSTGRES_TLS_CA_FILE": certificate.certificateFile],
            ["POSTGRES_TLS": "verify-full", "POSTGRES_TLS_CA_FILE": "/nonexistent/ca.pem"],
        ] {
            #expect(throws: ConfigError.self, "\(broken)") { try PostgresConfiguration(environment: EnvironmentReader(broken), defaultSchema: "s") }
        }
        #expect(try PostgresConfiguration(environment: EnvironmentReader(["POSTGRES_TLS": "Verify-Full"]), defaultSchema: "s").tls == .verifyFull)
    }

    /// Whether the session the configuration opens is encrypted, as the server sees it.
    private func encrypted(_ configuration: PostgresConfiguration) async throws -> Bool {
        let client = configuration.makeClient(logger: logger)
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            let rows = try await withTimeLimit(.seconds(10)) {
                try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: logger).decode(Bool.self).collectAll()
            }
            return rows.first ?? false
        }
    }
}
