import CRdKafka
import Synchronization

/// Collects the delivery reports of messages sent together and resumes the sender once all are in.
/// Reports only decrement an atomic counter; the lock is taken for the first error and for the last report.
/// The sender keeps the batch alive until `wait()` returns, which is after the last report, so messages
/// carry it as an unretained opaque.
final class DeliveryBatch: Sendable {
    private struct Completion {
        var firstError: KafkaError?
        var continuation: CheckedContinuation<Void, any Error>?
        var finished = false
    }

    private let pending: Atomic<Int>
    private let completion = Mutex(Completion())

    init(count: Int) {
        pending = Atomic(count)
    }

    /// Waits until every message of the batch was acknowledged or failed; throws the first failure.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, KafkaError>? = completion.withLock { state in
                guard state.finished else {
                    state.continuation = continuation
                    return nil
                }
                return state.firstError.map { .failure($0) } ?? .success(())
            }
            if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
        }
    }

    /// Marks `count` messages as never enqueued (librdkafka refused them), with the error why.
    func abandon(count: Int, error: KafkaError) {
        record(error)
        complete(count: count)
    }

    /// Called on the producer's poll thread for each delivery report.
    func report(_ code: rd_kafka_resp_err_t) {
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            record(KafkaError(code: code, context: "delivery failed"))
        }
        complete(count: 1)
    }

    private func record(_ error: KafkaError) {
        completion.withLock { state in
            if state.firstError == nil { state.firstError = error }
        }
    }

    private func complete(count: Int) {
        guard pending.subtract(count, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        let resume: (CheckedContinuation<Void, any Error>, KafkaError?)? = completion.withLock { state in
            state.finished = true
            guard let continuation = state.continuation else { return nil }
            state.continuation = nil
            return (continuation, state.firstError)
        }
        guard let (continuation, error) = resume else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
