import Foundation
import Synchronization

/// A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts and must name first (a
/// child process, a cluster). It is taken below the kernel's ephemeral range: a port from `bind(0)` comes from
/// that range, and before the server binds it an outgoing connection (to Postgres, the broker) may take it as
/// its source port, and the service's start fails with EADDRINUSE. No port is handed out twice in a run.
/// On a machine whose ephemeral range leaves fewer than 4,000 ports below it, the kernel's `bind(0)` choice.
public func freePort() -> Int {
    guard let (low, high) = PortPicker.range else { return PortPicker.kernelsChoice() }
    for _ in 0..<2_000 {
        let port = Int.random(in: low..<high)
        guard PortPicker.handedOut.withLock({ $0.insert(port).inserted }) else { continue }
        if PortPicker.bind(port) != nil { return port }
    }
    return PortPicker.kernelsChoice()
}

private enum PortPicker {
    static let handedOut = Mutex<Set<Int>>([])

    /// Up to 12,000 ports below the ephemeral range (Linux: 32768-60999 by default, so 20768-32767); nil when
    /// fewer than 4,000 are left above 1023.
    static let range: (Int, Int)? = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? "32768 60999"
        let ephemeralLow = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        let low = max(1_024, ephemeralLow - 12_000)
        return ephemeralLow - low >= 4_000 ? (low, ephemeralLow) : nil
    }()

    static func kernelsChoice() -> Int { bind(0) ?? 0 }

    /// Binds a socket on 127.0.0.1 to `port` (0: any) and closes it; the port bound, nil when the bind failed.
    static func bind(_ port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard bound == 0 else { return nil }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
