import AnalyticsContract
import Foundation

/// An app's telemetry on its way to analytics (N1): events queue in memory (the oldest give way past
/// `queueLimit`), go in batches of up to `batchSize`, and a batch the service could not take (503, 429, no
/// connection) is sent again after a growing pause (the service's `Retry-After` when it names one), at most
/// `attempts` times, then dropped. Sending a batch again is safe: ingestion counts an event id once.
public actor TelemetryBatcher {
    public typealias Event = Components.Schemas.TelemetryEvent

    public struct Policy: Sendable {
        public var batchSize = 100
        public var queueLimit = 1_000
        public var attempts = 5
        public var firstPause: Duration = .seconds(1)
        public var longestPause: Duration = .seconds(60)

        public init() {}
    }

    /// What became of the events so far.
    public struct Tally: Sendable, Hashable {
        /// Taken by the service (repeats of earlier events included).
        public var accepted = 0
        /// Refused by the service for what they say (each with its code in the answer).
        public var rejected = 0
        /// Never taken: pushed out of a full queue, or in a batch that ran out of attempts or that the service
        /// refused as a whole (a wrong app key, a body too large).
        public var dropped = 0

        public init(accepted: Int = 0, rejected: Int = 0, dropped: Int = 0) {
            self.accepted = accepted
            self.rejected = rejected
            self.dropped = dropped
        }
    }

    private let client: Client
    private let appKey: String
    private let policy: Policy
    private let sleep: @Sendable (Duration) async throws -> Void
    private var queue: [Event] = []
    public private(set) var tally = Tally()

    public init(
        client: Client, appKey: String, policy: Policy = Policy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.appKey = appKey
        self.policy = policy
        self.sleep = sleep
    }

    public var queued: Int { queue.count }

    public func record(_ event: Event) {
        if queue.count >= policy.queueLimit {
            queue.removeFirst()
            tally.dropped += 1
        }
        queue.append(event)
    }

    /// Sends what is queued, batch by batch. Stops at a batch that ran out of attempts (the service or the
    /// network is down; what is left waits for the next flush), or when its task is cancelled during a pause (that
    /// batch goes back to the head of the queue).
    public func flush() async {
        while !queue.isEmpty {
            // Out of the queue before the first await: what is recorded meanwhile (or pushed out) is not the batch.
            let batch = Array(queue.prefix(policy.batchSize))
            queue.removeFirst(batch.count)
            switch await send(batch) {
            case .settled: continue
            case .outOfAttempts: return
            case .interrupted:
                // The wait was cancelled (the app went to the background): the batch waits for the next flush.
                queue.insert(contentsOf: batch, at: 0)
                return
            }
        }
    }

    private enum Delivery {
        /// Taken, or refused for good.
        case settled
        /// Dropped after the last attempt.
        case outOfAttempts
        /// A pause between attempts was cancelled.
        case interrupted
    }

    private func send(_ batch: [Event]) async -> Delivery {
        var pause = policy.firstPause
        for attempt in 1...max(1, policy.attempts) {
            let wait: Duration
            switch await outcome(of: batch) {
            case .settled: return .settled
            case .retryAfter(let asked): wait = min(asked ?? pause, policy.longestPause)
            }
            guard attempt < policy.attempts else { break }
            do { try await sleep(wait) } catch { return .interrupted }
            pause = min(pause * 2, policy.longestPause)
        }
        tally.dropped += batch.count
        return .outOfAttempts
    }

    private enum Outcome {
        case settled
        case retryAfter(Duration?)
    }

    private func outcome(of batch: [Event]) async -> Outcome {
        let answer: Operations.IngestTelemetry.Output
        do {
            answer = try await client.ingestTelemetry(headers: .init(xAppKey: appKey), body: .json(.init(events: batch)))
        } catch {
            return .retryAfter(nil)
        }
        switch answer {
        case .accepted(let accepted):
            guard let result = try? accepted.body.json else { return .retryAfter(nil) }
            tally.accepted += result.accepted
            tally.rejected += result.rejected.count
        case .unprocessableContent: tally.rejected += batch.count
        case .tooManyRequests(let refused): return .retryAfter(refused.headers.retryAfter.map { .seconds($0) })
        case .serviceUnavailable(let refused): return .retryAfter(refused.headers.retryAfter.map { .seconds($0) })
        case .badRequest, .unauthorized, .contentTooLarge, .unsupportedMediaType: tally.dropped += batch.count
        case .undocumented(let status, _) where status >= 500: return .retryAfter(nil)
        case .undocumented: tally.dropped += batch.count
        }
        return .settled
    }
}
