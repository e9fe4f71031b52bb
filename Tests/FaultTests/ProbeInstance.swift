import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestSupport

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
        self.environment = environment.merging(["HTTP_PORT": "\(port)", "PATH": "/usr/bin:/bin"]) { $1 }
        try launch()
    }

    private func launch() throws {
        let process = ChildProcess()
        process.executableURL = executable
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            Self.logFile?.write(chunk)
            self.state.withLock { state in
                state.log.append(chunk)
                if state.log.count > 200_000 { state.log.removeFirst(state.log.count - 100_000) }
            }
        }
        process.terminationHandler = { [weak self] _ in self?.relaunchUnlessStopped() }
        try process.run()
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
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/emit?from=\(from)&count=\(count)")!)
        request.httpMethod = "POST"
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                let (_, response) = try await URLSession.shared.data(for: request)
                guard (response as? HTTPURLResponse)?.statusCode == 202 else { throw ProbeError("emit answered \(response)") }
                return
            } catch where ContinuousClock.now < deadline && !(error is ProbeError) {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func status(_ path: String) async -> Int? {
        guard let (_, response) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!) else {
            return nil
        }
        return (response as? HTTPURLResponse)?.statusCode
    }

    func body(_ path: String) async -> String {
        guard let (data, _) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!) else { return "" }
        return String(decoding: data, as: UTF8.self)
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
