import Foundation

/// A PostgreSQL cluster of a test's own, for tests that stop and restart the database (the shared one serves
/// every other test at once), started and stopped by `scripts/throwaway.sh`: the same start as the test command's
/// own cluster.
public final class PostgresCluster: Sendable {
    public let port: Int
    public let directory: String
    /// Extra `-c` settings for the server (TLS: see `init(certificate:)`).
    private let serverOptions: String

    /// `certificate`: serve TLS with it (`ssl=on`), as a managed database would.
    public init(certificate: TestCertificate? = nil) throws {
        port = freePort()
        directory = NSTemporaryDirectory() + "fault-pg-\(uniqueSuffix())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let certificate {
            // Postgres refuses a key file others may read.
            try certificate.certificatePEM.write(toFile: "\(directory)/server.crt", atomically: true, encoding: .utf8)
            try certificate.privateKeyPEM.write(toFile: "\(directory)/server.key", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(directory)/server.key")
            serverOptions = "-c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key"
        } else {
            serverOptions = ""
        }
        // The server runs as `postgres` when the tests run as root: it must read the certificate and key.
        if getuid() == 0 { try Throwaway.runCommand(["/bin/chown", "-R", "postgres:postgres", directory]) }
        try start()
    }

    public func start() throws {
        try Throwaway.run(
            ["postgres-start", "\(directory)/data", "\(port)", "\(directory)/postgres.log"],
            environment: ["PG_FSYNC": "off", "PG_MAX_CONNECTIONS": "200", "PG_OPTIONS": serverOptions])
    }

    /// Fast shutdown: sessions are cut, as in a database restart or failover.
    public func stop() throws {
        try Throwaway.run(["postgres-stop", "\(directory)/data"])
    }

    public func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
