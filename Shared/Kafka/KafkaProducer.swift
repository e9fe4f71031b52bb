import CRdKafka
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// An idempotent Kafka producer (`acks=all`). `send` returns once the broker acknowledged every message, and
/// throws when any could not be delivered. Delivery reports are served by a dedicated poll thread, so no
/// librdkafka call blocks Swift's cooperative pool. Run it in a `ServiceGroup` to flush on shutdown.
public final class KafkaProducer: Service, Sendable {
    private let handle: RdKafkaHandle
    private let executor: BlockingExecutor
    private let logger: Logger
    private let isClosed = Atomic<Bool>(false)
    private let pollThread = PollThreadControl()
    private let topics = TopicHandleCache()
    /// Sends inside their enqueue loop; `close` waits for them before it releases topic handles and the client.
    private let enqueuing = Atomic<Int>(0)

    public init(configuration: KafkaProducerConfiguration, logger: Logger) throws {
        self.logger = logger
        executor = BlockingExecutor(label: "kafka.producer.\(configuration.broker.clientId)")
        handle = try RdKafkaHandle(type: RD_KAFKA_PRODUCER, properties: configuration.properties) { conf in
            rd_kafka_conf_set_dr_msg_cb(conf, deliveryReportCallback)
        }
        startPollThread()
    }

    deinit {
        if !isClosed.load(ordering: .acquiring) {
            stopPollThread()
            topics.releaseAll()
            handle.destroy()
        }
    }

    /// Sends one message and waits for the broker's acknowledgement.
    public func send(_ message: KafkaOutgoingMessage) async throws {
        try await send([message])
    }

    /// Sends messages in order and waits until every one is acknowledged. Messages with the same key land in
    /// one partition in this order; the idempotent producer keeps that order across retries.
    public func send(_ messages: [KafkaOutgoingMessage]) async throws {
        guard !messages.isEmpty else { return }
        // Announce the enqueue first, then check for close: `close` flips the flag first, then waits for the
        // count to drop, so every send either sees the flag or is waited for.
        enqueuing.add(1, ordering: .sequentiallyConsistent)
        guard !isClosed.load(ordering: .sequentiallyConsistent) else {
            enqueuing.subtract(1, ordering: .sequentiallyConsistent)
            throw KafkaError("producer is closed")
        }
        let batch = DeliveryBatch(count: messages.count)
        for (index, message) in messages.enumerated() {
            do {
                try await enqueue(message, batch: batch)
            } catch {
                batch.abandon(count: messages.count - index, error: error as? KafkaError ?? KafkaError("\(error)"))
                break
            }
        }
        enqueuing.subtract(1, ordering: .sequentiallyConsistent)
        try await batch.wait()
    }

    /// Enqueues one message, waiting briefly while librdkafka's local queue is full.
    private func enqueue(_ message: KafkaOutgoingMessage, batch: DeliveryBatch) async throws {
        while true {
            let code = produce(message, batch: batch)
            if code == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            if code == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            throw KafkaError(code: code, context: "could not enqueue message for \(message.topic)")
        }
    }

    /// One non-blocking `rd_kafka_produceva` call. `batch` travels unretained: `send` keeps it alive until the
    /// last delivery report arrived.
    private func produce(_ message: KafkaOutgoingMessage, batch: DeliveryBatch) -> rd_kafka_resp_err_t {
        guard let topic = topics.handle(for: message.topic, client: handle) else {
            return rd_kafka_last_error()
        }
        let opaque = Unmanaged.passUnretained(batch).toOpaque()
        let headers = makeHeaders(message.headers)
        let code: rd_kafka_resp_err_t = message.value.withUnsafeBytes { value in
                withOptionalBytes(message.key) { key in
                    // Stack-allocated argument list: this runs once per message on the hot path.
                    withUnsafeTemporaryAllocation(of: rd_kafka_vu_t.self, capacity: 6) { vus in
                        vus.initialize(repeating: rd_kafka_vu_t())
                        vus[0].vtype = RD_KAFKA_VTYPE_RKT
                        vus[0].u.rkt = topic
                        vus[1].vtype = RD_KAFKA_VTYPE_VALUE
                        vus[1].u.mem.ptr = UnsafeMutableRawPointer(mutating: value.baseAddress)
                        vus[1].u.mem.size = value.count
                        vus[2].vtype = RD_KAFKA_VTYPE_MSGFLAGS
                        vus[2].u.i = RD_KAFKA_MSG_F_COPY
                        vus[3].vtype = RD_KAFKA_VTYPE_OPAQUE
                        vus[3].u.ptr = opaque
                        vus[4].vtype = RD_KAFKA_VTYPE_KEY
                        vus[4].u.mem.ptr = UnsafeMutableRawPointer(mutating: key?.baseAddress)
                        vus[4].u.mem.size = key?.count ?? 0
                        var count = key == nil ? 4 : 5
                        if let headers {
                            vus[count].vtype = RD_KAFKA_VTYPE_HEADERS
                            vus[count].u.headers = headers
                            count += 1
                        }
                        guard let error = rd_kafka_produceva(handle.pointer, vus.baseAddress, count) else {
                            return RD_KAFKA_RESP_ERR_NO_ERROR
                        }
                        defer { rd_kafka_error_destroy(error) }
                        return rd_kafka_error_code(error)
                    }
                }
            }
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            // On failure librdkafka does not take the headers: free them here.
            if let headers { rd_kafka_headers_destroy(headers) }
        }
        return code
    }

    private func makeHeaders(_ headers: [KafkaHeader]) -> OpaquePointer? {
        guard !headers.isEmpty, let list = rd_kafka_headers_new(headers.count) else { return nil }
        for header in headers {
            header.value.withUnsafeBytes { bytes in
                _ = rd_kafka_header_add(list, header.name, -1, bytes.baseAddress, bytes.count)
            }
        }
        return list
    }

    /// Asks the brokers for metadata; true when at least one answered within the timeout.
    public func isBrokerReachable(timeoutMilliseconds: Int32 = 2_000) async -> Bool {
        let handle = self.handle
        return (try? await executor.run { try handle.brokerCount(timeoutMilliseconds: timeoutMilliseconds) > 0 }) ?? false
    }

    /// Runs until graceful shutdown, then flushes what is queued and closes the client.
    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }

    /// Flushes queued messages (up to `timeoutMilliseconds`) and releases the client. Safe to call twice.
    public func close(timeoutMilliseconds: Int32 = 10_000) async throws {
        guard !isClosed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        while enqueuing.load(ordering: .sequentiallyConsistent) > 0 {
            try? await Task.sleep(for: .milliseconds(1))
        }
        stopPollThread()
        let (handle, topics) = (self.handle, self.topics)
        let remaining = try await executor.run { () -> Int32 in
            _ = rd_kafka_flush(handle.pointer, timeoutMilliseconds)
            // Topic handles go before the client; no send is enqueuing any more (waited for above).
            topics.releaseAll()
            let left = rd_kafka_outq_len(handle.pointer)
            handle.destroy()
            return left
        }
        if remaining > 0 {
            logger.error("Kafka producer closed with undelivered messages", metadata: ["count": "\(remaining)"])
        }
    }

    private func startPollThread() {
        let (handle, control) = (self.handle, self.pollThread)
        let thread = Thread {
            while !control.stopped.load(ordering: .acquiring) {
                rd_kafka_poll(handle.pointer, 50)
            }
            control.done.signal()
        }
        thread.name = "kafka-producer-poll"
        thread.start()
    }

    private func stopPollThread() {
        guard !pollThread.stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pollThread.done.wait()
    }
}

/// Lets `close()` stop the poll thread and wait until it has left librdkafka.
private final class PollThreadControl: Sendable {
    let stopped = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
}

/// librdkafka calls this on the poll thread once per message; the opaque is the message's (unretained) batch.
private let deliveryReportCallback: @convention(c) (
    OpaquePointer?, UnsafePointer<rd_kafka_message_t>?, UnsafeMutableRawPointer?
) -> Void = { _, message, _ in
    guard let message, let opaque = message.pointee._private else { return }
    Unmanaged<DeliveryBatch>.fromOpaque(opaque).takeUnretainedValue().report(message.pointee.err)
}

private func withOptionalBytes<Result>(
    _ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> Result
) -> Result {
    guard let bytes else { return body(nil) }
    return bytes.withUnsafeBytes { body($0) }
}
