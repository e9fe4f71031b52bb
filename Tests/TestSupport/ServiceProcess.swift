import Foundation

/// Like `httpStatus`, on a connection of its own that is closed after the answer.
public func httpStatusOnNewConnection(_ url: String) async -> Int? {
    await LoopbackHTTP.status(url, timeout: .seconds(3), newConnection: true)
}

/// The status of a GET of `url` on loopback; nil when nothing answered in time.
public func httpStatus(_ url: String) async -> Int? {
    await LoopbackHTTP.status(url)
}

/// A built service executable started with only the given environment (plus PATH), as an operator starts it:
/// the process tests, the tracing tests across processes, the shutdown suite and the bench.
public final class ServiceProcess: @unchecked Sendable {
    // @unchecked: `errorData` is guarded by `lock`; `process` is only used through thread-safe Process API.
    private let process = ChildProcess()
    private let lock = NSLock()
    private var errorData = Data()

    /// The executable of that name in the test run's build directory (`TEST_BUILD_DIR`).
    public convenience init(executable: String, environment: [String: String]) throws {
        guard let directory = TestInfrastructure.current.buildDirectory else {
            throw TestInfrastructure.Missing(description: "TEST_BUILD_DIR is not set: run the tests with scripts/test.sh")
        }
        try self.init(executableURL: URL(fileURLWithPath: directory).appendingPathComponent(executable), environment: environment)
    }

    /// The executable at `executableURL`. Its standard error is kept (`standardError`), or passed through to this
    /// process's with `passingStandardError` (the bench, whose operator watches the services' logs as it runs).
    public init(executableURL: URL, environment: [String: String], passingStandardError: Bool = false) throws {
        process.executableURL = executableURL
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        process.standardOutput = passingStandardError ? FileHandle.standardError : FileHandle.nullDevice
        if passingStandardError {
            process.standardError = FileHandle.standardError
            try process.run()
            return
        }
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        Self.drain(pipe.fileHandleForReading) { [weak self] chunk in
            guard let self else { return }
            self.lock.withLock { self.errorData.append(chunk) }
        }
    }

    /// Waits until the service answers `/ready` on `port` with 200; fails when it exits or `timeout` passes.
    public func waitReady(port: Int, timeout: Duration = .seconds(300)) async throws {
        let name = process.executableURL?.lastPathComponent ?? "the service"
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw StartFailure(description: "\(name) exited during start-up") }
            if await LoopbackHTTP.status("http://127.0.0.1:\(port)/ready") == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartFailure(description: "\(name) was not ready in \(timeout)")
    }

    /// A service that did not come up.
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// SIGTERM, then waits for the exit: an orderly stop, as an operator's.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    public var standardError: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }

    public func terminate() { process.terminate() }  // SIGTERM

    public var processIdentifier: Int32 { process.processIdentifier }

    public func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        try await Task.sleep(for: .milliseconds(100))  // let the stderr reader drain
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Reads `handle` to its end on a thread of its own, passing each chunk to `take`. A blocking read, not
    /// `readabilityHandler`: tearing down the dispatch read source behind that handler races the descriptor's close
    /// and crashes the whole test process in libdispatch's event loop (swift-corelibs-libdispatch#949).
    public static func drain(_ handle: FileHandle, _ take: @escaping @Sendable (Data) -> Void) {
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                take(chunk)
            }
        }.start()
    }
}
