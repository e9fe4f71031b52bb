import Dispatch

/// Runs blocking librdkafka calls on a serial dispatch queue of their own, so they never occupy a thread
/// of Swift's cooperative pool (a blocked pool thread stalls every task in the process).
final class BlockingExecutor: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Swift.Result { try body() })
            }
        }
    }
}
