import Foundation
import Synchronization

/// A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts and must name first (a
/// child process, a cluster). It is taken below the kernel's ephemeral range: a port from `bind(0)` comes from
/// that range, and before the server binds it an outgoing connection (to Postgres, the broker) may take it as
/// its source port, which failed a service's start with EADDRINUSE once. No port is handed out twice in a run.
public func freePort() -> Int {
    let (low, high) = PortPicker.range
    for _ in 0..<2_000 {
        let port = Int.random(in: low..<high)
        guard PortPicker.handedOut.withLock({ $0.insert(port).inserted }) else { continue }
        if PortPicker.isFree(port) { return port }
    }
    preconditionFailure("no free port between \(low) and \(high) on 127.0.0.1")
}

private enum PortPicker {
    static let handedOut = Mutex<Set<Int>>([])

    /// The 12,000 ports below the ephemeral range (Linux: 32768-60999 by default, so 20768-32767).
    static let range: (Int, Int) = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? "32768 60999"
        let ephemeralLow = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        return (max(1_024, ephemeralLow - 12_000), ephemeralLow)
    }()

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
    }
}
