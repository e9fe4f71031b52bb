import Foundation
import Shared
import Testing

@Suite("Event pipeline: pure rules")
struct PipelineUnitTests {
    @Test("X2: permanent, transient and unknown failures are told apart")
    func test_X2_failureClassification() {
        #expect(EventFailure.classify(EventDecodingError(reason: "bad")) == .permanent)
        #expect(EventFailure.classify(StepTimeout(limit: .seconds(1))) == .transient)
        #expect(EventFailure.classify(CancellationError()) == .transient)
        struct HandlerBug: Error {}
        #expect(EventFailure.classify(HandlerBug()) == .unknown)
    }

    @Test("X2: values from outside become Ints without trapping")
    func test_X2_roundedClampedInt() {
        #expect(2.5.roundedClampedInt == 3)
        #expect((-0.4).roundedClampedInt == 0)
        #expect(Double.nan.roundedClampedInt == 0)
        #expect(Double.infinity.roundedClampedInt == Int.max)
        #expect((-Double.infinity).roundedClampedInt == Int.min)
        #expect(1e300.roundedClampedInt == Int.max)
        #expect((-1e300).roundedClampedInt == Int.min)
        #expect(9_223_372_036_854_775_807.0.roundedClampedInt == Int.max)
        #expect((-9_223_372_036_854_775_808.0).roundedClampedInt == Int.min)
    }

    @Test("X2: an event dated outside 1970...2200 is refused before any handler (PostgresNIO traps binding year 294277)")
    func test_X2_eventDatesOutOfRangeArePermanent() throws {
        let far = EventEnvelope(
            type: EventType("test.far"), occurredAt: Date(timeIntervalSince1970: 9_400_000_000_000), producer: "tests", key: "k",
            payload: ["x": "y"])
        #expect(throws: EventDecodingError.self) { try ReceivedEvent(bytes: try far.encoded()) }
        let near = EventEnvelope(type: EventType("test.near"), producer: "tests", key: "k", payload: ["x": "y"])
        #expect(throws: Never.self) { try ReceivedEvent(bytes: try near.encoded()) }
    }
}
