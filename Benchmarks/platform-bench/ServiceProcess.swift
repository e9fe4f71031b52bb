import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One service process started for the bench, stopped with SIGTERM.
final class ServiceProcess {
    let process: Process

    private init(process: Process) { self.process = process }

    static func start(binary: String, environment: [String: String]) throws -> ServiceProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // `/metrics` on any free port: the HTTP port + 1000 (the default) may be taken by a second instance.
        process.environment = ProcessInfo.processInfo.environment.merging(["METRICS_PORT": "0"]) { $1 }.merging(environment) { $1 }
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        try process.run()
        return ServiceProcess(process: process)
    }

    func waitReady(port: Int, timeout: Duration = .seconds(300)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw BenchError("\(process.executableURL?.lastPathComponent ?? "the service") exited during start-up") }
            if let url = URL(string: "http://127.0.0.1:\(port)/ready"),
                let (_, response) = try? await URLSession.shared.data(from: url), (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("\(process.executableURL?.lastPathComponent ?? "the service") was not ready in time")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
