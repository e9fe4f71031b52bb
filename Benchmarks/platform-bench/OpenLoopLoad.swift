import Foundation
import PlatformCore
import Synchronization

/// An open-loop load: sessions start at a fixed arrival rate whatever the answers do, each at its intended instant
/// (start + i / rate). A session's first step is timed from that intended instant, so a late start (the generator
/// or the machine behind) counts as latency instead of being left out (no coordinated omission); each later step is
/// timed from the end of the one before, when the user would ask.
struct OpenLoopLoad {
    /// One rate step's measurements.
    struct Step: Sendable {
        var rate: Int
        var seconds: Int
        var started = 0
        var completed = 0
        /// From the first intended start to the last session's end.
        var elapsed = 0.0
        /// Milliseconds per journey step name, and for whole sessions under `OpenLoopLoad.sessionName`.
        var latencies: [String: [Double]] = [:]
        var errors: [String: Int] = [:]
        /// A few error answers, to print.
        var errorSamples: [String] = []

        var errorCount: Int { errors.values.reduce(0, +) }
        var achieved: Double { elapsed > 0 ? Double(completed) / elapsed : 0 }

        func p(_ name: String, _ fraction: Double) -> Double? {
            latencies[name].map { percentile($0, fraction) }
        }
    }

    static let sessionName = "whole session"

    /// Where a session's steps report to: thread-safe, shared by the step's sessions.
    final class Recorder: Sendable {
        private let step: Mutex<Step>

        init(rate: Int, seconds: Int) { step = Mutex(Step(rate: rate, seconds: seconds)) }

        func record(_ name: String, milliseconds: Double) {
            step.withLock { $0.latencies[name, default: []].append(milliseconds) }
        }

        func fail(_ name: String, _ reason: String) {
            step.withLock { step in
                step.errors[name, default: 0] += 1
                if step.errorSamples.count < 5 { step.errorSamples.append("\(name): \(reason)") }
            }
        }

        /// A session that went through to its end.
        func complete(milliseconds: Double) {
            step.withLock { step in
                step.latencies[OpenLoopLoad.sessionName, default: []].append(milliseconds)
                step.completed += 1
            }
        }

        func finish(started: Int, elapsed: Double) -> Step {
            step.withLock { step in
                step.started = started
                step.elapsed = elapsed
                return step
            }
        }
    }

    /// Times one journey step from `since`; a thrown error or an answer outside 2xx is an error of the step and ends
    /// the session (as an app shows the error instead of going on).
    static func timed(
        _ name: String, since: ContinuousClock.Instant, recorder: Recorder, _ request: () async throws -> StackHTTP.Answer
    ) async -> Bool {
        do {
            let answer = try await request()
            let elapsed = (ContinuousClock.now - since).seconds * 1_000
            guard answer.isSuccess else {
                recorder.fail(name, "\(answer.status) \(answer.body.prefix(200))")
                return false
            }
            recorder.record(name, milliseconds: elapsed)
            return true
        } catch {
            recorder.fail(name, "\(error)")
            return false
        }
    }

    /// `rate` sessions a second for `seconds`; waits for every started session to end. `session` gets the session's
    /// number (counted on from `firstIndex`) and its intended start, and says whether it completed.
    static func run(
        rate: Int, seconds: Int, firstIndex: Int,
        session: @escaping @Sendable (Int, ContinuousClock.Instant, Recorder) async -> Bool
    ) async -> Step {
        let recorder = Recorder(rate: rate, seconds: seconds)
        let count = rate * seconds
        let interval = Duration.seconds(1) / rate
        let start = ContinuousClock.now + .milliseconds(20)
        await withDiscardingTaskGroup { group in
            for index in 0..<count {
                let intended = start + interval * index
                try? await Task.sleep(until: intended, clock: .continuous)
                group.addTask {
                    if await session(firstIndex + index, intended, recorder) {
                        recorder.complete(milliseconds: (ContinuousClock.now - intended).seconds * 1_000)
                    }
                }
            }
        }
        return recorder.finish(started: count, elapsed: (ContinuousClock.now - start).seconds)
    }
}
