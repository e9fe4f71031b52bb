import ServiceLifecycle
import Synchronization

/// Holds background work (outbox relay, consumers) until start-up steps such as migrations are done.
/// `open()` lets waiters go on; `fail()` tells them to stop because start-up failed.
public final class StartGate: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Bool, Never>])
        case opened
        case failed
    }

    private let state = Mutex<State>(.waiting([]))

    public init(open: Bool = false) {
        if open { state.withLock { $0 = .opened } }
    }

    /// Waits until the gate opens (true) or start-up failed (false).
    public func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready: Bool? = state.withLock { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .opened: return true
                case .failed: return false
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// As `wait()`, but a graceful shutdown while waiting answers false instead of waiting on.
    public func waitUnlessShuttingDown() async -> Bool {
        await withGracefulShutdownHandler {
            await wait()
        } onGracefulShutdown: {
            self.fail()
        }
    }

    public var isOpen: Bool {
        state.withLock { if case .opened = $0 { true } else { false } }
    }

    public func open() { finish(.opened, result: true) }
    public func fail() { finish(.failed, result: false) }

    private func finish(_ final: State, result: Bool) {
        let waiters: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = final
            return waiters
        }
        waiters.forEach { $0.resume(returning: result) }
    }
}
