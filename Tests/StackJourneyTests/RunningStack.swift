import Foundation
import PlatformClient
import TestSupport
import Testing

/// The six services started as docker-compose starts them (its commands and environment, through
/// `scripts/compose-smoke.py --serve`), against the test run's Postgres and broker, for one journey (X5).
/// `settings` go into the stack's .env, as an operator would set them: the fake providers' base URLs. Or the stack
/// an operator started with `STACK_JOURNEYS=1 scripts/stack.sh start`, met by `scripts/journeys.sh` (see JourneyProviders).
struct RunningStack: Sendable {
    let addresses: ServiceAddresses
    /// The .env's telemetry keys, by app.
    let telemetryKeys: [String: String]

    private struct State: Decodable {
        let services: [String: String]
        let telemetryKeys: [String: String]
    }

    /// The stack at the addresses `services` names (service name → base URL), with its apps' telemetry keys.
    init(services: [String: String], telemetryKeys: [String: String]) throws {
        func address(_ service: String) throws -> URL {
            guard let text = services[service], let url = URL(string: text) else {
                throw StackError(description: "the stack named no address for \(service)")
            }
            return url
        }
        addresses = ServiceAddresses(
            weather: try address("weather-fetcher"), warnings: try address("warning-detector"), places: try address("places-importer"),
            auth: try address("auth"), analytics: try address("analytics-aggregator"), appointments: try address("appointment-booker"))
        self.telemetryKeys = telemetryKeys
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Starts the stack, runs `body` with it, and stops it; each service must end with exit code 0 on SIGTERM.
    /// Against a running stack (`scripts/journeys.sh`), checks that it was started with `settings` and runs `body`.
    static func run<Result: Sendable>(
        settings: [String: String], _ body: @Sendable (RunningStack) async throws -> Result
    ) async throws -> Result {
        let providers = JourneyProviders.current
        if providers.meetsRunningStack {
            try providers.check(settings)
            return try await body(try providers.runningStack())
        }
        let infrastructure = TestInfrastructure.current
        try infrastructure.check()
        let environment = ProcessInfo.processInfo.environment
        guard let python = environment["TEST_PYTHON"], let build = infrastructure.buildDirectory else {
            throw StackError(description: "TEST_PYTHON and TEST_BUILD_DIR are not set: run the journeys with scripts/test.sh")
        }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("journey-stack-\(uniqueSuffix()).json")
        let logURL = URL(fileURLWithPath: build).appendingPathComponent("journey-stack.log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw StackError(description: "cannot write \(logURL.path)")
        }
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let stack = ChildProcess()
        stack.executableURL = URL(fileURLWithPath: python)
        stack.arguments =
            [repositoryRoot.appendingPathComponent("scripts/compose-smoke.py").path, build, "--serve", state.path]
            + settings.sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
            // JOURNEY_WITHOUT=service[,service]: leave services out, to see a journey fail when its path is broken.
            + (environment["JOURNEY_WITHOUT"] ?? "").split(separator: ",").flatMap { ["--without", String($0)] }
        stack.standardOutput = log
        stack.standardError = log
        try stack.run()
        defer { try? FileManager.default.removeItem(at: state) }
        do {
            let running = try await waitForState(at: state, of: stack, log: logURL)
            let result = try await body(running)
            try await stop(stack, log: logURL)
            return result
        } catch {
            stack.terminate()
            await Task.detached { stack.waitUntilExit() }.value
            throw error
        }
    }

    private static func waitForState(at state: URL, of stack: ChildProcess, log: URL) async throws -> RunningStack {
        let deadline = ContinuousClock.now + .seconds(240)
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: state.path) {
                let decoded = try JSONDecoder().decode(State.self, from: data)
                return try RunningStack(services: decoded.services, telemetryKeys: decoded.telemetryKeys)
            }
            guard stack.isRunning else {
                throw StackError(description: "the stack exited with \(stack.terminationStatus) before it was ready (log: \(log.path))")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw StackError(description: "the stack was not ready in 240 s (log: \(log.path))")
    }

    private static func stop(_ stack: ChildProcess, log: URL) async throws {
        stack.terminate()
        await Task.detached { stack.waitUntilExit() }.value
        guard stack.terminationStatus == 0 else {
            throw StackError(description: "a service did not stop cleanly on SIGTERM (exit \(stack.terminationStatus); log: \(log.path))")
        }
    }
}

struct StackError: Error, CustomStringConvertible {
    let description: String
}
