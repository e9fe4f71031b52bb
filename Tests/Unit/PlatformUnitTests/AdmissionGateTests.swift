import PlatformCore
import Synchronization
import Testing
import UnitTestSupport

@Suite("The admission gate (bcrypt in auth, address lookups in places)")
struct AdmissionGateTests {
    @Test("U7: two run, one waits, the fourth is refused; a place freed goes to the waiter")
    func admission() async throws {
        let gate = AdmissionGate(running: 2, waiting: 1)
        try await gate.enter()
        try await gate.enter()
        let waiterIn = Mutex(false)
        let waiter = Task {
            try await gate.enter()
            waiterIn.withLock { $0 = true }
        }
        #expect(try await eventually { gate.queuedCount == 1 }, "the third caller waits")
        #expect(await refused(gate), "two running, one waiting: the fourth is refused at once")
        #expect(!waiterIn.withLock { $0 })
        gate.leave()
        try await waiter.value
        #expect(waiterIn.withLock { $0 } && gate.queuedCount == 0, "the freed place went to the waiter")
        gate.leave()
        gate.leave()
        try await gate.enter()
        try await gate.enter()
        gate.leave()
        gate.leave()
    }

    /// Whether a caller arriving now is refused (called only while the queue is full, so it never waits).
    private func refused(_ gate: AdmissionGate) async -> Bool {
        do {
            try await gate.enter()
            gate.leave()
            return false
        } catch {
            return true
        }
    }
}
