import Foundation

/// A Tansu broker of a test's own, for tests that stop and restart the broker. Memory storage: a restart
/// starts with an empty log, like a broker that lost its disk, so callers recreate their topics.
public final class BrokerProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object, from one task at a time.
    public let port: Int
    private var process: ChildProcess?

    public init(port: Int) {
        self.port = port
    }

    public var address: String { "127.0.0.1:\(port)" }

    public func start() throws {
        guard let binary = TestInfrastructure.current.tansuBinary else {
            throw TestInfrastructure.Missing(description: "TANSU_BIN is not set: run the tests with scripts/test.sh")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "broker", "--listener-url", "tcp://127.0.0.1:\(port)", "--advertised-listener-url", "tcp://127.0.0.1:\(port)",
            "--storage-engine", "memory://tansu/",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        try waitForPort(port, timeout: 20)
    }

    public func stop() {
        guard let process, process.isRunning else { return }
        // Tansu does not exit on SIGTERM; its memory log has nothing to save, so kill it outright.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    deinit { stop() }
}

public func waitForPort(_ port: Int, timeout: TimeInterval) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
        if result == 0 { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nothing listens on 127.0.0.1:\(port)"])
}
