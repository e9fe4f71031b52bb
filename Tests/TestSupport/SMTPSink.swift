import Foundation

/// A real SMTP server for tests, keeping every received mail for tests to read back and how each session was
/// secured in `sessions`: Python's aiosmtpd (`scripts/test-smtp-server.py`, writing a Maildir) for TLS and
/// AUTH, a plain server in the test process (`PlainSMTPServer`) otherwise.
public final class SMTPSink: @unchecked Sendable {
    // @unchecked: every stored property is set once in init and only read afterwards.
    public let port: Int
    private let process = ChildProcess()
    private let directory: URL
    private let plain: PlainSMTPServer?

    /// How the server is secured; `.starttls` and `.tls` serve `certificate`.
    public enum Security: String, Sendable {
        case none, starttls, tls
    }

    /// AUTH required with these credentials, offering only `mechanisms` (over TLS only).
    public struct Login: Sendable {
        public var user: String
        public var password: String
        public var mechanisms: [String]

        public init(user: String, password: String, mechanisms: [String] = ["PLAIN", "LOGIN"]) {
            (self.user, self.password, self.mechanisms) = (user, password, mechanisms)
        }
    }

    /// `port`: a fixed port for a plain server (a running stack was configured with it); 0 for a free one.
    public init(security: Security = .none, certificate: TestCertificate? = nil, login: Login? = nil, port fixedPort: Int = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(uniqueSuffix())")
        if security == .none && login == nil {
            let server = try PlainSMTPServer(port: fixedPort)
            (plain, port) = (server, server.port)
            return
        }
        plain = nil
        guard let python = ProcessInfo.processInfo.environment["TEST_PYTHON"] else {
            throw TestInfrastructure.Missing(description: "TEST_PYTHON is not set: run the tests with scripts/test.sh")
        }
        port = freePort()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = [
            RepositoryFiles.root.appendingPathComponent("scripts/test-smtp-server.py").path, "--port", "\(port)", "--maildir", directory.path,
            "--tls", security.rawValue,
        ]
        if security != .none {
            guard let certificate else { throw TestInfrastructure.Missing(description: "an SMTP server with TLS needs a TestCertificate") }
            let keyFile = directory.appendingPathComponent("key.pem").path
            try certificate.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
            arguments += ["--cert", certificate.certificateFile, "--key", keyFile]
        }
        if let login {
            arguments += ["--user", login.user, "--password", login.password, "--mechanisms", login.mechanisms.joined(separator: ",")]
        }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitForPort(port, timeout: 20)
    }

    /// Everything received so far, oldest first: the messages as sent (the plain server's, lines ended by CR LF) or
    /// as aiosmtpd's Mailbox handler keeps them in its Maildir (with its X-Peer, X-MailFrom and X-RcptTo headers).
    public var mailbox: String {
        if let plain { return plain.messages.joined(separator: "\n") }
        let new = directory.appendingPathComponent("mbox/new")
        let files = (try? FileManager.default.contentsOfDirectory(at: new, includingPropertiesForKeys: [.creationDateKey])) ?? []
        let ordered = files.sorted {
            let left = (try? $0.resourceValues(forKeys: [.creationDateKey]).creationDate) ?? .distantPast
            let right = (try? $1.resourceValues(forKeys: [.creationDateKey]).creationDate) ?? .distantPast
            return left == right ? $0.lastPathComponent < $1.lastPathComponent : left < right
        }
        return ordered.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// One line per session that delivered a mail: `tls=yes auth=PLAIN user=...`.
    public var sessions: [String] {
        if let plain { return plain.messages.map { _ in "tls=no auth=none user=" } }
        let text = (try? String(contentsOf: directory.appendingPathComponent("sessions.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}
