import CRdKafka
import Foundation
import Logging
import Synchronization

/// One librdkafka producer instance with its delivery-report thread and topic handles. `KafkaProducer`
/// replaces it with a fresh one when it stops working (see `KafkaProducer.rebuild`).
final class ProducerClient: Sendable {
    let handle: RdKafkaHandle
    let topics = TopicHandleCache()
    let signals: ProducerSignals
    /// Sends inside their enqueue loop; `retire` waits for them before it releases topic handles and the client.
    let enqueuing = Atomic<Int>(0)
    private let pollThread = PollThreadControl()

    init(configuration: KafkaProducerConfiguration) throws {
        let signals = ProducerSignals()
        self.signals = signals
        handle = try RdKafkaHandle(type: RD_KAFKA_PRODUCER, properties: configuration.properties) { conf in
            rd_kafka_conf_set_dr_msg_cb(conf, deliveryReportCallback)
            rd_kafka_conf_set_error_cb(conf, producerErrorCallback)
            rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(signals).toOpaque())
        }
        startPollThread()
    }

    /// One non-blocking `rd_kafka_produceva` call. `batch` travels unretained: the sender keeps it alive until
    /// the last delivery report arrived.
    func produce(_ message: KafkaOutgoingMessage, batch: DeliveryBatch) -> rd_kafka_resp_err_t {
        guard let topic = topics.handle(for: message.topic, client: handle) else {
            return rd_kafka_last_error()
        }
        let opaque = Unmanaged.passUnretained(batch).toOpaque()
        let headers = makeHeaders(message.headers)
        let pointer = handle.pointer
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
                    guard let error = rd_kafka_produceva(pointer, vus.baseAddress, count) else {
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

    /// Waits for sends still enqueuing, then, when `purge` is set, fails what is queued or in flight (their
    /// senders see the error at once), flushes up to `timeoutMilliseconds`, and releases the client. Call it
    /// off the cooperative pool, after no new send can reach this client. Returns the messages left undelivered.
    func retire(purge: Bool, timeoutMilliseconds: Int32) -> Int32 {
        let flags = Int32(RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT)
        // Purge first (thread-safe), so a sender waiting on a full queue gets room and leaves its enqueue loop,
        // then wait for the senders, then purge what they added meanwhile.
        if purge { _ = rd_kafka_purge(handle.pointer, flags) }
        while enqueuing.load(ordering: .sequentiallyConsistent) > 0 {
            Thread.sleep(forTimeInterval: 0.001)
        }
        if purge { _ = rd_kafka_purge(handle.pointer, flags) }
        // The poll thread still runs here, so purged and flushed messages get their delivery reports.
        _ = rd_kafka_flush(handle.pointer, timeoutMilliseconds)
        let left = rd_kafka_outq_len(handle.pointer)
        if left > 0 {
            // Still queued after the flush (the brokers are down at shutdown, say): failed here, so each sender
            // hears of it. A destroy drops them without a delivery report, and their senders would wait for good.
            _ = rd_kafka_purge(handle.pointer, flags)
            _ = rd_kafka_flush(handle.pointer, 1_000)
        }
        stopPollThread()
        // Serve reports that arrived between the flush and the thread's stop.
        rd_kafka_poll(handle.pointer, 0)
        topics.releaseAll()
        handle.destroy()
        return left
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

/// What librdkafka's error callback reported: all brokers lost (after which a broker that restarted without
/// its state refuses this producer's sequence numbers) or a fatal error (the instance is unusable).
final class ProducerSignals: Sendable {
    private let lostBrokers = Atomic<Bool>(false)
    private let fatal = Atomic<Bool>(false)

    func reportedLostBrokers() { lostBrokers.store(true, ordering: .releasing) }
    func reportedFatal() { fatal.store(true, ordering: .releasing) }

    var hasLostBrokers: Bool { lostBrokers.load(ordering: .acquiring) }
    var isFatal: Bool { fatal.load(ordering: .acquiring) }
}

/// Lets `retire` stop the poll thread and wait until it has left librdkafka.
private final class PollThreadControl: Sendable {
    let stopped = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
}

/// librdkafka calls this on the poll thread once per message; the opaque is the message's (unretained) batch.
private let deliveryReportCallback:
    @convention(c) (
        OpaquePointer?, UnsafePointer<rd_kafka_message_t>?, UnsafeMutableRawPointer?
    ) -> Void = { _, message, _ in
        guard let message, let opaque = message.pointee._private else { return }
        Unmanaged<DeliveryBatch>.fromOpaque(opaque).takeUnretainedValue().report(message.pointee.err)
    }

/// librdkafka calls this on the poll thread for client-level errors; the opaque is the client's signals, which
/// the `ProducerClient` keeps alive for as long as the handle.
private let producerErrorCallback:
    @convention(c) (
        OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?
    ) -> Void = { _, code, _, opaque in
        guard let opaque else { return }
        let signals = Unmanaged<ProducerSignals>.fromOpaque(opaque).takeUnretainedValue()
        if code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN.rawValue { signals.reportedLostBrokers() }
        if code == RD_KAFKA_RESP_ERR__FATAL.rawValue { signals.reportedFatal() }
    }

private func withOptionalBytes<Result>(
    _ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> Result
) -> Result {
    guard let bytes else { return body(nil) }
    return bytes.withUnsafeBytes { body($0) }
}
