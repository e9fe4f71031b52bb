import CRdKafka
import Synchronization

/// Collects the delivery reports of messages sent together and resumes the sender once all are in.
/// Each message holds one retain on the batch (its librdkafka opaque), released by its report.
final class DeliveryBatch: Sendable {
    private struct State {
        var pending: Int
        var firstError: KafkaError?
        var continuation: CheckedContinuation<Void, any Error>?
        var finished = false
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(pending: count))
    }

    /// Waits until every message of the batch was acknowledged or failed.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let resumeNow: Result<Void, KafkaError>? = state.withLock { state in
                if state.pending == 0 {
                    state.finished = true
                    return state.firstError.map { .failure($0) } ?? .success(())
                }
                state.continuation = continuation
                return nil
            }
            if let resumeNow { continuation.resume(with: resumeNow.mapError { $0 as any Error }) }
        }
    }

    /// Marks `count` messages as never enqueued (librdkafka refused them), with the error why.
    func abandon(count: Int, error: KafkaError) {
        complete(count: count, error: error)
    }

    /// Called on the producer's poll thread for each delivery report.
    func report(_ code: rd_kafka_resp_err_t) {
        complete(count: 1, error: code == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError(code: code, context: "delivery failed"))
    }

    private func complete(count: Int, error: KafkaError?) {
        let resume: (CheckedContinuation<Void, any Error>, KafkaError?)? = state.withLock { state in
            state.pending -= count
            if state.firstError == nil, let error { state.firstError = error }
            guard state.pending == 0, let continuation = state.continuation, !state.finished else { return nil }
            state.finished = true
            state.continuation = nil
            return (continuation, state.firstError)
        }
        guard let (continuation, error) = resume else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
