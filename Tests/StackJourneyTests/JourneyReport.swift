import Foundation

/// One journey's steps with their latencies (X5), printed as a table when it ends and kept in
/// `TEST_ARTIFACTS_DIR/journeys/<app>.txt`, so a slow or failing step is named in the run's output.
final class JourneyReport: @unchecked Sendable {
    private let app: String
    private let lock = NSLock()
    private var steps: [(name: String, milliseconds: Double, passed: Bool)] = []

    init(app: String) { self.app = app }

    /// Runs a step, timing it; a step that throws is reported as failed and ends the journey (the journeys check
    /// with `#require`, so a failed check is a failed step).
    @discardableResult
    func step<Result>(_ name: String, _ body: () async throws -> Result) async throws -> Result {
        let started = ContinuousClock.now
        do {
            let result = try await body()
            record(name, since: started, passed: true)
            return result
        } catch {
            record(name, since: started, passed: false)
            throw JourneyStepFailed(step: name, underlying: error)
        }
    }

    /// Waits for what another service does in its own time (an event crossing the broker, an import), polling.
    @discardableResult
    func eventually<Result>(
        _ name: String, within limit: Duration = .seconds(60), _ probe: () async throws -> Result?
    ) async throws -> Result {
        try await step(name) { try await poll(within: limit, probe) }
    }

    private func record(_ name: String, since started: ContinuousClock.Instant, passed: Bool) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        lock.withLock { steps.append((name, milliseconds, passed)) }
    }

    /// The table, and the file beside the run's other artifacts.
    func finish() {
        let rows = lock.withLock { steps }
        let width = max(4, rows.map(\.name.count).max() ?? 0)
        var text = "journey: \(app)\n" + "step".padding(toLength: width, withPad: " ", startingAt: 0) + "      ms  result\n"
        for row in rows {
            text +=
                row.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: " %8.0f  %@\n", row.milliseconds, row.passed ? "ok" : "FAILED")
        }
        print(text)
        guard let folder = ProcessInfo.processInfo.environment["TEST_ARTIFACTS_DIR"] else { return }
        let directory = URL(fileURLWithPath: folder).appendingPathComponent("journeys")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: directory.appendingPathComponent("\(app).txt"))
    }
}

struct JourneyStepFailed: Error, CustomStringConvertible {
    let step: String
    let underlying: any Error
    var description: String { "step \"\(step)\" failed: \(underlying)" }
}

struct JourneyTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "not seen within \(limit)" }
}
