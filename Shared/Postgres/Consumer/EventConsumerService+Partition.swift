import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformKafka
import PostgresNIO
import Tracing

/// How one partition's batch is applied: in one transaction when its previous attempt finished; one message
/// at a time when the crash guard found an attempt that never finished; one message at a time, too, when
/// the batch as a whole failed with an error that is not transient, so one bad event does not hold its
/// neighbours.
extension EventConsumerService {
    /// Applies a partition's messages and stores their offsets. False when it gave up because the service stops.
    func apply(_ batch: PartitionBatch) async -> Bool {
        var remaining = batch.messages[...]
        while let first = remaining.first, let last = remaining.last {
            guard !shouldStop else { return false }
            // Shared: other partitions' fresh batches run beside this one; a suspect waits until they are done.
            let messages = remaining
            let token = UUID()
            let (attempt, done) = await gate.withShared { () -> (CrashGuard.Attempt?, Bool) in
                guard
                    let attempt = await self.retryingUntilStopped(
                        batch, "record the attempt",
                        {
                            try await self.crashGuard.begin(
                                topic: batch.topic, partition: batch.partition, first: first.offset, last: last.offset, token: token,
                                logger: self.logger)
                        })
                else { return (nil, false) }
                guard attempt.isFresh else { return (attempt, false) }
                return (attempt, await self.applyTogether(messages, of: batch, token: attempt.token))
            }
            guard let attempt else { return false }
            if attempt.isFresh {
                if !done { await releaseAfterStop(batch) }
                return done
            }
            logger.warning(
                "the process died while applying these offsets; applying them one at a time",
                metadata: [
                    "partition": "\(batch.name)", "firstOffset": "\(attempt.firstOffset)", "lastOffset": "\(attempt.lastOffset)",
                    "crashes": "\(attempt.crashes)",
                ])
            let suspects = remaining.prefix { $0.offset <= attempt.lastOffset }
            for message in suspects {
                // Exclusive: nothing else in flight, so a crash now is this message's alone.
                var applied = false
                if !shouldStop {
                    applied = await gate.withExclusive { await self.applyAlone(message, of: batch, attempt: attempt) }
                }
                guard applied else {
                    await releaseAfterStop(batch)
                    return false
                }
            }
            remaining = remaining.dropFirst(suspects.count)
        }
        return true
    }

    /// An orderly stop in the middle of a partition's work is not a crash: its row stops counting as in flight.
    private func releaseAfterStop(_ batch: PartitionBatch) async {
        try? await withTimeLimit(.seconds(2)) {
            try await self.crashGuard.release(topic: batch.topic, partition: batch.partition, logger: self.logger)
        }
    }

    /// The fast path: every decodable event of the batch in one transaction, which also clears the crash guard.
    private func applyTogether(_ messages: ArraySlice<KafkaMessage>, of batch: PartitionBatch, token: UUID) async -> Bool {
        // The batch's span (its transaction) is a trace of its own that links to the trace of every event it
        // carries: a batch holds events of many traces. Each traced event gets its own consumer span from the
        // handler (`EventTracing`), where what is done for it continues its producer's trace.
        await withSpan("\(batch.topic) process", context: .topLevel, ofKind: .consumer) { span in
            span.attributes["messaging.system"] = "kafka"
            span.attributes["messaging.destination.name"] = batch.topic
            span.attributes["messaging.destination.partition.id"] = "\(batch.partition)"
            span.attributes["messaging.batch.message_count"] = messages.count
            for traceParent in messages.compactMap(\.traceParent) {
                span.addLink(SpanLink(context: PlatformTracing.context(traceParent: traceParent), attributes: [:]))
            }
            return await applyTogetherInSpan(messages, of: batch, token: token)
        }
    }

    private func applyTogetherInSpan(_ messages: ArraySlice<KafkaMessage>, of batch: PartitionBatch, token: UUID) async -> Bool {
        var events: [ReceivedEvent] = []
        var undecodable: [(KafkaMessage, ForeignProducerOrUndecodable)] = []
        events.reserveCapacity(messages.count)
        for index in messages.indices {
            let message = messages[index]
            // Read ahead while the partition's previous batch was applying, when the loop polled ahead.
            switch batch.received.indices.contains(index) ? batch.received[index] : receive(message) {
            case .success(let event): events.append(event)
            case .failure(let refusal): undecodable.append((message, refusal))
            }
        }
        let (topic, guardRows, logger, decoded) = (batch.topic, crashGuard, self.logger, events)
        let started = ContinuousClock.now
        let result = await retryingTransient(batch) {
            try await self.processor.process(
                batch: decoded, topic: topic, handler: self.handler, logger: logger,
                alsoInTransaction: { try await guardRows.finish(token, on: $0, logger: logger) })
        }
        switch result {
        case .done(let outcome):
            metrics.batchApplied(size: messages.count, duration: .now - started)
            logger.debug(
                "batch applied", metadata: ["partition": "\(batch.name)", "applied": "\(outcome.applied)", "duplicates": "\(outcome.duplicates)"])
            metrics.consumed(topic: topic, outcome: IdempotentProcessor.Outcome.applied.rawValue, count: outcome.applied)
            metrics.consumed(topic: topic, outcome: IdempotentProcessor.Outcome.duplicate.rawValue, count: outcome.duplicates)
            for (message, refusal) in undecodable {
                guard await deadLetter(message, error: refusal.error, reason: refusal.reason, attempts: 1) else { return false }
            }
            if let last = messages.last { consumer.storeOffset(of: last) }
            return true
        case .failed(let error):
            logger.warning(
                "batch failed; applying its events one at a time",
                metadata: ["partition": "\(batch.name)", "size": "\(messages.count)", "error": "\(String(reflecting: error))"])
            for message in messages {
                guard await applyOne(message, of: batch) else { return false }
                consumer.storeOffset(of: message)
            }
            return await retryingUntilStopped(batch, "clear the attempt") {
                try await guardRows.finish(token, logger: logger)
            } != nil
        case .stopped:
            return false
        }
    }

    /// One message of a range whose earlier attempt died: dead-lettered unread once it has taken the process
    /// down `maxCrashes` times, otherwise recorded alone (so a crash now is counted against it only) and applied.
    private func applyAlone(_ message: KafkaMessage, of batch: PartitionBatch, attempt: CrashGuard.Attempt) async -> Bool {
        let (topic, partition, guardRows, logger) = (batch.topic, batch.partition, crashGuard, self.logger)
        let crashes = attempt.crashes(of: message.offset)
        if crashes >= crashGuard.maxCrashes {
            guard
                await deadLetter(message, error: CrashLoop(crashes: crashes), reason: .crashLoop, attempts: crashes),
                await retryingUntilStopped(
                    batch, "clear the attempt",
                    {
                        try await guardRows.clear(topic: topic, partition: partition, logger: logger)
                    }) != nil
            else { return false }
        } else {
            let token = UUID()
            guard
                await retryingUntilStopped(
                    batch, "record the attempt",
                    {
                        try await guardRows.narrow(
                            topic: topic, partition: partition, offset: message.offset, crashes: crashes, token: token, logger: logger)
                    }) != nil,
                await applyOne(message, of: batch),
                await retryingUntilStopped(batch, "clear the attempt", { try await guardRows.finish(token, logger: logger) }) != nil
            else { return false }
        }
        consumer.storeOffset(of: message)
        return true
    }

    /// Applies one message to the end: applied, duplicate or dead-lettered. Transient failures are retried for
    /// as long as they last; other failures a few times. False when it gave up because the service stops.
    func applyOne(_ message: KafkaMessage, of batch: PartitionBatch) async -> Bool {
        let event: ReceivedEvent
        switch receive(message) {
        case .success(let received): event = received
        case .failure(let refusal): return await deadLetter(message, error: refusal.error, reason: refusal.reason, attempts: 1)
        }
        var metadata: Logger.Metadata = [
            "partition": "\(batch.name)", "offset": "\(message.offset)", "eventId": "\(event.header.id)",
            "eventType": "\(event.header.type)",
        ]
        var attempt = 1
        while true {
            let result = await retryingTransient(batch) {
                try await self.processor.process(event, topic: batch.topic, handler: self.handler, logger: self.logger)
            }
            switch result {
            case .done(let outcome):
                metrics.consumed(topic: batch.topic, outcome: outcome.rawValue)
                return true
            case .stopped:
                return false
            case .failed(let error):
                metadata["error"] = "\(String(reflecting: error))"
                if EventFailure.classify(error) == .permanent {
                    return await deadLetter(message, error: error, reason: .permanent, attempts: attempt)
                }
                if attempt >= retryPolicy.maxAttempts {
                    return await deadLetter(message, error: error, reason: .retriesExhausted, attempts: attempt)
                }
                logger.warning("handler failed; retrying", metadata: metadata.merging(["attempt": "\(attempt)"]) { $1 })
                try? await Task.sleep(for: retryPolicy.delay(after: attempt))
                if shouldStop { return false }
                attempt += 1
            }
        }
    }

    /// Publishes to the dead-letter topic, retrying until the broker takes it. False when the service stops first.
    func deadLetter(_ message: KafkaMessage, error: any Error, reason: DeadLetterReason, attempts: Int) async -> Bool {
        logger.error(
            "event dead-lettered",
            metadata: [
                "topic": "\(message.topic)", "partition": "\(message.partition)", "offset": "\(message.offset)",
                "reason": "\(reason.rawValue)", "error": "\(String(reflecting: error))",
            ])
        let published: Void? = await retryingUntilStopped(
            PartitionBatch(topic: message.topic, partition: message.partition, messages: []), "dead-letter"
        ) {
            try await self.deadLetters.publish(message, error: error, reason: reason, attempts: attempts)
        }
        guard published != nil else { return false }
        metrics.deadLettered(topic: message.topic, reason: reason)
        return true
    }

    enum StepResult<Value: Sendable>: Sendable {
        case done(Value)
        case failed(any Error)
        case stopped
    }

    /// Runs `body` until it succeeds or fails with an error that is not transient. While it fails transiently
    /// the partition counts as paused, and the wait between tries doubles up to the retry policy's cap.
    func retryingTransient<Value: Sendable>(
        _ batch: PartitionBatch, _ body: @escaping @Sendable () async throws -> Value
    ) async -> StepResult<Value> {
        await retrying(batch, what: nil, body)
    }

    /// Runs a bookkeeping step (the crash guard's row, a dead-letter publish) until it succeeds, whatever it
    /// throws: skipping it would lose the event or the guard. Nil when the service stops first.
    func retryingUntilStopped<Value: Sendable>(
        _ batch: PartitionBatch, _ what: String, _ body: @escaping @Sendable () async throws -> Value
    ) async -> Value? {
        guard case .done(let value) = await retrying(batch, what: what, body) else { return nil }
        return value
    }

    /// The one retry loop: each try under the step time limit and counted as a running step; a failure pauses the
    /// partition and waits (doubling, capped) before the next try. Without `what`, only transient failures are
    /// retried (others end it as `.failed`); with it, every failure is, and the pause reason names the step.
    private func retrying<Value: Sendable>(
        _ batch: PartitionBatch, what: String?, _ body: @escaping @Sendable () async throws -> Value
    ) async -> StepResult<Value> {
        var delay = retryPolicy.initialDelay
        defer { health.resume(batch.name) }
        while true {
            health.stepStarted(batch.name)
            defer { health.stepEnded(batch.name) }
            do {
                return .done(try await withTimeLimit(retryPolicy.stepTimeLimit, body))
            } catch {
                if what == nil && EventFailure.classify(error) != .transient { return .failed(error) }
                let reason = String(describing: error).prefix(200)
                health.pause(batch.name, reason: what.map { "could not \($0): \(reason)" } ?? String(reason))
                metrics.paused(seconds: health.longestPause.map { (ContinuousClock.now - $0.since).seconds } ?? 0)
                logger.log(
                    level: what == nil ? .warning : .error,
                    "\(what.map { "could not \($0); retrying" } ?? "transient failure; partition paused, retrying")",
                    metadata: ["partition": "\(batch.name)", "error": "\(String(reflecting: error))", "retryIn": "\(delay)"])
                try? await Task.sleep(for: delay)
                if shouldStop { return .stopped }
                delay = min(delay * 2, retryPolicy.maxDelay)
            }
        }
    }
}

/// The reason recorded for a message dead-lettered by the crash guard.
public struct CrashLoop: Error, CustomStringConvertible, Sendable {
    public let crashes: Int
    public var description: String {
        "the process stopped \(crashes) times while applying this message (a trap or a kill); dead-lettered without running its handler"
    }
}
