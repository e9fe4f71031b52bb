import Foundation

/// A PostgreSQL cluster of a test's own, for tests that stop and restart the database (the shared one serves
/// every other test at once). initdb and postgres refuse to run as root, so as root they run as `postgres`,
/// as scripts/lib.sh does.
public final class PostgresCluster: Sendable {
    public let port: Int
    public let directory: String
    private let binaries: String
    /// Extra `-c` settings for the server (TLS: see `init(certificate:)`).
    private let serverOptions: String

    /// `certificate`: serve TLS with it (`ssl=on`), as a managed database would.
    public init(certificate: TestCertificate? = nil) throws {
        port = freePort()
        directory = NSTemporaryDirectory() + "fault-pg-\(uniqueSuffix())"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }).last else {
            throw ClusterError("no PostgreSQL under /usr/lib/postgresql (scripts/install-deps.sh installs it)")
        }
        binaries = "/usr/lib/postgresql/\(newest)/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let certificate {
            // Postgres refuses a key file others may read.
            try certificate.certificatePEM.write(toFile: "\(directory)/server.crt", atomically: true, encoding: .utf8)
            try certificate.privateKeyPEM.write(toFile: "\(directory)/server.key", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(directory)/server.key")
            serverOptions = " -c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key"
        } else {
            serverOptions = ""
        }
        if getuid() == 0 { try run("/bin/chown", ["-R", "postgres:postgres", directory], asPostgres: false) }
        try run(
            "\(binaries)/initdb", ["-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"])
        try start()
    }

    public func start() throws {
        try run(
            "\(binaries)/pg_ctl",
            [
                "-D", "\(directory)/data", "-l", "\(directory)/postgres.log", "-w", "-t", "60", "-o",
                "-h 127.0.0.1 -p \(port) -k \(directory) -c fsync=off -c max_connections=200\(serverOptions)", "start",
            ])
    }

    /// Fast shutdown: sessions are cut, as in a database restart or failover.
    public func stop() throws {
        try run("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
    }

    public func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ executable: String, _ arguments: [String], asPostgres: Bool = true) throws {
        let command = (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [executable] + arguments
        // Through Python's subprocess, which closes inherited descriptors: Foundation's Process notices a child's
        // exit by a descriptor the child inherits, and the server pg_ctl leaves running would keep it open forever.
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"] + command
        // A file, not a pipe: the server started by pg_ctl would hold a pipe open, and reading it would never end.
        let errorFile = "\(directory).\(uniqueSuffix()).err"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let output = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
            throw ClusterError("\(executable) \(arguments.joined(separator: " ")) failed: \(output)")
        }
    }
}

struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
