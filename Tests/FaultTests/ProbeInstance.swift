import Foundation
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `pipeline-probe` process, kept running the way an orchestrator keeps a pod running: when it exits (a
/// trap, a kill -9) it is started again with the same environment, and the restarts are counted.
final class ProbeInstance: Sendable {
    let port: Int
    private let environment: [String: String]
    private let executable: URL
    private let state = Mutex<State>(State())

    private struct State {
        var process: ChildProcess?
        var restarts = 0
        var stopped = false
        var log = Data()
    }

    init(environment: [String: String]) throws {
        guard let directory = TestInfrastructure.current.buildDirectory else {
            throw ProbeError("TEST_BUILD_DIR is not set: run the fault suite with scripts/test.sh")
        }
        executable = URL(fileURLWithPath: directory).appendingPathComponent("pipeline-probe")
        port = freePort()
        self.environment = environment.merging(["HTTP_PORT": "\(port)", "METRICS_PORT": "0", "PATH": "/usr/bin:/bin"]) { $1 }
        try launch()
    }

    /// `FAULT_PROBE_WRAPPER`: a command the probe runs under, by hand (valgrind on the Kafka layer, say:
    /// `valgrind --error-exitcode=86 --log-file=/tmp/probe-%p.log`).
    private static let wrapper: [String] =
        ProcessInfo.processInfo.environment["FAULT_PROBE_WRAPPER"].map {
            $0.split(separator: " ").map(String.init)
        } ?? []

    private func launch() throws {
        let process = ChildProcess()
        if let command = Self.wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(Self.wrapper.dropFirst()) + [executable.path]
        } else {
            process.executableURL = executable
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] _ in self?.relaunchUnlessStopped() }
        try process.run()
        ServiceProcess.drain(pipe.fileHandleForReading) { [weak self] chunk in
            guard let self else { return }
            Self.logFile?.write(chunk)
            self.state.withLock { state in
                state.log.append(chunk)
                if state.log.count > 200_000 { state.log.removeFirst(state.log.count - 100_000) }
            }
        }
        state.withLock { $0.process = process }
    }

    private func relaunchUnlessStopped() {
        let again = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.restarts += 1
            return true
        }
        guard again else { return }
        // An orchestrator waits a little before a restart too; it also keeps a crash loop from spinning.
        Thread.sleep(forTimeInterval: 0.2)
        try? launch()
    }

    /// FAULT_LOG_FILE=<path> keeps every probe's whole log there (the failure message shows only its tail).
    private static let logFile: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["FAULT_LOG_FILE"] else { return nil }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }()

    var restarts: Int { state.withLock { $0.restarts } }
    var recentLog: String { state.withLock { String(decoding: $0.log.suffix(4_000), as: UTF8.self) } }

    /// SIGKILL: no handler runs, nothing is flushed; the instance comes back by itself.
    func killHard() {
        if let process = state.withLock({ $0.process }), process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Sends `signal` (a crash: the runtime hands the process to its crash reporter, `swift-backtrace`), then, as a
    /// supervisor that restarts the process alone would, SIGKILL to the process only; it comes back at once on the
    /// same port. The reporter goes on (a debug build's symbolication takes minutes): its pids are returned, for
    /// the caller to end once the restarted instance has shown it can listen.
    func crash(signal: Int32) async throws -> [Int32] {
        guard let process = state.withLock({ $0.process }), process.isRunning else { return [] }
        let pid = process.processIdentifier
        kill(pid, signal)
        try await Task.sleep(for: .milliseconds(300))
        let reporters = ProcessTable.children(of: pid)
        kill(pid, SIGKILL)
        return reporters
    }

    /// Stops the instance for good (SIGKILL: the suite does not measure shutdown).
    func stop() {
        let process = state.withLock { state -> ChildProcess? in
            state.stopped = true
            return state.process
        }
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Waits until `/ready` answers 200.
    func waitReady(timeout: Duration = .seconds(60)) async throws {
        let ready = try await eventually(timeout: timeout, interval: .milliseconds(200)) { await self.status("/ready") == 200 }
        guard ready else { throw ProbeError("pipeline-probe never became ready:\n\(recentLog)") }
    }

    /// Writes events `from..<from+count` to the probe's outbox (one transaction).
    /// The probe may be restarting (the poison scenario takes it down on purpose): a refused connection is tried
    /// again for up to a minute, as a client of a restarting service would.
    func emit(from: Int, count: Int) async throws {
        let url = "http://127.0.0.1:\(port)/emit?from=\(from)&count=\(count)"
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                let answer = try await LoopbackHTTP.send("POST", url)
                guard answer.status == 202 else { throw ProbeError("emit answered \(answer.status): \(answer.text)") }
                return
            } catch  where ContinuousClock.now < deadline && !(error is ProbeError) {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func status(_ path: String) async -> Int? {
        await LoopbackHTTP.status("http://127.0.0.1:\(port)\(path)")
    }

    func body(_ path: String) async -> String {
        (try? await LoopbackHTTP.send("GET", "http://127.0.0.1:\(port)\(path)", timeout: .seconds(5)).text) ?? ""
    }

    deinit {
        state.withLock { state in
            state.stopped = true
            if let process = state.process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
