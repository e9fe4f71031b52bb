import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks every socket the process holds close-on-exec (X4). SwiftNIO opens its sockets without
/// `SOCK_CLOEXEC`, so a crashing service hands its listening socket to the runtime's crash reporter
/// (`swift-backtrace`, which the runtime starts as a child): while the reporter symbolicates, the port stays
/// bound and a service started again at once fails with `EADDRINUSE`. Called once the server listens.
public enum SocketsCloseOnExec {
    /// The descriptors it marked (sockets that were not close-on-exec yet).
    @discardableResult
    public static func markAll() -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var marked: [Int32] = []
        for name in names {
            guard let fd = Int32(name), isSocket(fd) else { continue }
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0, flags & FD_CLOEXEC == 0 else { continue }
            if fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 { marked.append(fd) }
        }
        return marked
    }

    static func isSocket(_ fd: Int32) -> Bool {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Whether `fd` is close-on-exec (for tests).
    public static func isCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }
}
