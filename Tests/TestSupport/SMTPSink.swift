import Foundation

/// A real SMTP server for tests (Python's aiosmtpd, installed by the scripts), writing every received mail to a
/// Maildir that tests read back.
public final class SMTPSink: @unchecked Sendable {
    // @unchecked: `process` is set once in init and only read afterwards.
    public let port: Int
    private let process = Process()
    private let directory: URL

    public init() throws {
        guard let python = ProcessInfo.processInfo.environment["TEST_PYTHON"] else {
            fatalError("TEST_PYTHON is not set: run the tests with scripts/test.sh")
        }
        port = freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(uniqueSuffix())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Mailbox", directory.appendingPathComponent("mbox").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitForPort(port, timeout: 20)
    }

    /// Everything received so far, oldest first (aiosmtpd's Mailbox handler keeps a Maildir).
    public var mailbox: String {
        let new = directory.appendingPathComponent("mbox/new")
        let files = (try? FileManager.default.contentsOfDirectory(at: new, includingPropertiesForKeys: [.creationDateKey])) ?? []
        let ordered = files.sorted {
            let left = (try? $0.resourceValues(forKeys: [.creationDateKey]).creationDate) ?? .distantPast
            let right = (try? $1.resourceValues(forKeys: [.creationDateKey]).creationDate) ?? .distantPast
            return left == right ? $0.lastPathComponent < $1.lastPathComponent : left < right
        }
        return ordered.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}
