import Foundation

/// Runs the Schemathesis fuzzer (PyPI, installed in the project's venv by `scripts/install-deps.sh`)
/// against a running service's served `/openapi.yaml`, with every check on (X3).
public enum Schemathesis {
    public struct Outcome: Sendable {
        public var exitCode: Int32
        public var output: String
    }

    /// One run with a bearer token; examples bounded so a service takes well under a minute. The seed is
    /// fixed (per run, from `SCHEMATHESIS_SEED` when set) so that a failure in CI replays here.
    /// Runs are one at a time across the whole test run (the fuzzer keeps a core busy), and the process is
    /// waited for off the cooperative thread pool: blocking a pool thread for a whole run starved the
    /// service under test on this 2-core machine.
    /// `headers`: sent with every request besides the bearer (an app key, say); `excludedPaths`: operations the
    /// fuzzer must not call (a stream that never ends).
    public static func run(
        baseURL: String, bearer: String?, headers: [String: String] = [:], excludedPaths: [String] = [], maxExamples: Int = 20
    ) async throws -> Outcome {
        try await gate.serially {
            try await runNow(baseURL: baseURL, bearer: bearer, headers: headers, excludedPaths: excludedPaths, maxExamples: maxExamples)
        }
    }

    static let gate = SerialGate()

    static func runNow(
        baseURL: String, bearer: String?, headers: [String: String], excludedPaths: [String], maxExamples: Int
    ) async throws -> Outcome {
        guard let python = ProcessInfo.processInfo.environment["TEST_PYTHON"] else {
            return Outcome(exitCode: -1, output: "TEST_PYTHON is not set: run the tests with scripts/test.sh")
        }
        let executable = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("contract/schemathesis.toml").path
        let seed = ProcessInfo.processInfo.environment["SCHEMATHESIS_SEED"] ?? "20261123"
        var arguments = [
            "--config-file", config, "--no-color", "run", "\(baseURL)/openapi.yaml", "--checks", "all", "--max-examples", "\(maxExamples)",
            "--seed", seed, "--workers", "1", "--request-timeout", "30", "--wait-for-schema", "30", "--phases", "examples,coverage,fuzzing",
            "--warnings", "off",
            "--report-dir", FileManager.default.temporaryDirectory.appendingPathComponent("schemathesis-\(UUID().uuidString)").path,
        ]
        if let bearer { arguments += ["--header", "Authorization: Bearer \(bearer)"] }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["--header", "\(name): \(value)"] }
        for path in excludedPaths { arguments += ["--exclude-path", path] }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"]) { $1 }
        let (status, output) = try await process.runCollectingOutput()
        return Outcome(exitCode: status, output: output)
    }
}

/// Runs async work one call at a time, in arrival order.
actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func serially<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await work()
    }
}
