import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of Foundation's `Process` API the tests use.
/// Foundation's `Process.run()` on Linux (swift-corelibs-foundation through Swift 6.3.1) copies whole 256-byte
/// names out of `readdir` while listing `/proc/self/fd` and, now and then, reads past the end of glibc's buffer
/// into an unmapped page: the whole test runner dies with SIGSEGV (seen here once in four full runs;
/// swift-corelibs-foundation PR #5472). The suites start dozens of children, so they use this instead.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the settings are written before `run()` only; `exit` is guarded by `condition`.
    public var executableURL: URL?
    public var arguments: [String]?
    /// Nil: this process's environment.
    public var environment: [String: String]?
    /// A `FileHandle` or a `Pipe` (its writing end is handed to the child and closed here); nil inherits.
    public var standardOutput: Any?
    public var standardError: Any?
    /// Called on a thread of its own when the child has exited.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    private let condition = NSCondition()
    private var pid: pid_t = 0
    private var exitStatus: Int32?

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public var processIdentifier: Int32 { condition.withLock { pid } }

    public var isRunning: Bool { condition.withLock { pid != 0 && exitStatus == nil } }

    /// The exit code, or the number of the signal that ended the child (as `Process` reports it).
    public var terminationStatus: Int32 { condition.withLock { exitStatus ?? 0 } }

    public func run() throws {
        guard let path = executableURL?.path else { throw SpawnError(description: "no executable") }
        let argv = [path] + (arguments ?? [])
        let environ = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, channel) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            if let handle = channel as? FileHandle, handle === FileHandle.nullDevice {
                // Foundation's null device has no descriptor of its own.
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            } else if let descriptor = Self.writingDescriptor(channel) {
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        // Nothing else of this process's reaches the child (pipes of other children above all), or a reader of
        // one child's pipe would wait for every child that inherited its writing end.
        _ = Self.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner ignores SIGPIPE (SwiftNIO) and may block signals: the child starts with the defaults.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var child: pid_t = 0
        let result = Self.withCStrings(argv) { argvPointers in
            Self.withCStrings(environ) { environPointers in
                posix_spawn(&child, path, &actions, &attributes, argvPointers, environPointers)
            }
        }
        guard result == 0 else { throw SpawnError(description: "posix_spawn \(path): \(String(cString: strerror(result)))") }
        condition.withLock { pid = child }
        for channel in [standardOutput, standardError] {
            if let pipe = channel as? Pipe { try? pipe.fileHandleForWriting.close() }
        }
        let spawned = child
        let reaper = Thread { [self] in
            let child = spawned
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG spelled out: Glibc's macros are not imported.
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
            condition.withLock {
                exitStatus = code
                condition.broadcast()
            }
            terminationHandler?(self)
        }
        reaper.start()
    }

    /// SIGTERM.
    public func terminate() {
        let child = processIdentifier
        if child != 0 { kill(child, SIGTERM) }
    }

    public func waitUntilExit() {
        condition.withLock {
            while pid != 0 && exitStatus == nil { condition.wait() }
        }
    }

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not import.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func writingDescriptor(_ channel: Any?) -> Int32? {
        switch channel {
        case let pipe as Pipe: pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: nil
        }
    }

    /// A NULL-terminated array of C strings that live for the call.
    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return body(pointers + [nil])
    }
}

extension ChildProcess {
    /// Runs to the end, waited for off the cooperative thread pool (a long run must not block one of its
    /// threads); the exit status and standard output and error together.
    public func runCollectingOutput() async throws -> (status: Int32, text: String) {
        let pipe = Pipe()
        standardOutput = pipe
        standardError = pipe
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try self.run()
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    self.waitUntilExit()
                    continuation.resume(returning: (self.terminationStatus, String(decoding: data, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
