import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import Testing
import UnitTestSupport

/// Deterministic generator of edge values for property-style tests: the same seed gives the same cases, so a
/// failure names a case that can be replayed.
package struct EdgeValues {
    private var random: SeededRandom

    package init(seed: UInt64) { random = SeededRandom(seed: seed) }

    package mutating func next() -> UInt64 { random.next() }

    package mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }

    /// Plausible values most of the time, so that some cases apply; the rest at the edges of what JSON carries
    /// (NaN and infinity cannot be written in JSON, so no producer can send them).
    package mutating func double(plausible: ClosedRange<Double>) -> Double {
        if next() % 3 == 0 {
            return plausible.lowerBound + Double(next() % 1_000) / 1_000 * (plausible.upperBound - plausible.lowerBound)
        }
        return pick([
            0, -0.0, 1e-300, -1e-300, 1.5e-173, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 9.3e18, -9.3e18,
            1e19, plausible.lowerBound - 1, plausible.upperBound + 1, plausible.lowerBound, plausible.upperBound,
        ])
    }

    package mutating func int() -> Int { pick([1, 2, 0, -1, Int(Int32.max), Int(Int32.max) + 1, Int.max, Int.min, 7_000_000]) }

    package mutating func text() -> String {
        pick(["Paris", "", String(repeating: "x", count: 10_000), "nul\u{0}byte", "Zürich ☀︎", "'; DROP TABLE warnings; --"])
    }

    package mutating func timeZone() -> String { pick(["Europe/Paris", "UTC", "Asia/Bangkok", "", "Mars/Olympus_Mons", "+25:00"]) }

    package mutating func date(around now: Date) -> Date {
        pick([
            now, now.addingTimeInterval(3_600), now.addingTimeInterval(-86_400 * 400), Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799),
            Date(timeIntervalSince1970: 9_400_000_000_000),
        ])
    }
}

/// What the consumer would do with one generated event: apply it, or dead-letter it as permanent (an undecodable
/// header or a refused payload). Any other failure is recorded as a test issue: it would be retried or would
/// stall a partition. A trap ends the test run, which fails it.
package struct EdgeTally {
    package var applied = 0
    package var deadLettered = 0

    package init() {}

    package mutating func run(
        _ bytes: [UInt8], case index: Int, processor: IdempotentProcessor, handler: any EventHandler, topic: String, logger: Logger
    ) async {
        guard let event = try? ReceivedEvent(bytes: bytes) else {
            deadLettered += 1
            return
        }
        do {
            _ = try await processor.process(event, topic: topic, handler: handler, logger: logger)
            applied += 1
        } catch {
            #expect(EventFailure.classify(error) == .permanent, "case \(index): \(String(reflecting: error).prefix(500))")
            deadLettered += 1
        }
    }
}
