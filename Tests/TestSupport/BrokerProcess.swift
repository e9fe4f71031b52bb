import Foundation

/// A Tansu broker of a test's own, for tests that stop and restart the broker, started and stopped by
/// `scripts/throwaway.sh` as the test command starts its own. Memory storage: a restart starts with an empty
/// log, like a broker that lost its disk, so callers recreate their topics.
public final class BrokerProcess: Sendable {
    public let port: Int
    private let directory: String

    public init(port: Int) {
        self.port = port
        directory = NSTemporaryDirectory() + "broker-\(port)-\(uniqueSuffix())"
    }

    public var address: String { "127.0.0.1:\(port)" }

    /// Returns once the broker listens.
    public func start() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Throwaway.run(["broker-start", "\(port)", "\(directory)/tansu.log", "\(directory)/tansu.pid"])
    }

    /// Kills the broker (it has nothing to save) and waits for it to go; nothing when it is not running.
    public func stop() {
        try? Throwaway.run(["broker-stop", "\(directory)/tansu.pid"])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
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
