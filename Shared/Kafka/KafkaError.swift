import CRdKafka

/// An error reported by librdkafka or by the Swift wrapper around it.
public struct KafkaError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in librdkafka's words where it gave any.
    public let description: String
    /// librdkafka's error code, when the error came from librdkafka.
    public let code: Int32?

    init(_ description: String, code: Int32? = nil) {
        self.description = description
        self.code = code
    }

    init(code: rd_kafka_resp_err_t, context: String) {
        let reason = String(cString: rd_kafka_err2str(code))
        self.init("\(context): \(reason)", code: code.rawValue)
    }

    /// True when the broker answered that it does not know the topic (as opposed to not answering at all).
    var namesUnknownTopic: Bool {
        guard let code else { return false }
        let unknown: [rd_kafka_resp_err_t] = [
            RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART, RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_ID,
        ]
        return unknown.contains { $0.rawValue == code }
    }

    /// True when the error means the broker could not be reached or timed out, which a retry may cure.
    public var isTransient: Bool {
        guard let code else { return false }
        let transient: [rd_kafka_resp_err_t] = [
            RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT,
            RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__QUEUE_FULL, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
            RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE,
            RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
        ]
        return transient.contains { $0.rawValue == code }
    }
}

extension KafkaError {
    /// True when a fresh producer may succeed where this one failed: the broker unreachable or timing out, or
    /// the idempotent producer's state refused (a broker that restarted without it) or fatal.
    public var suggestsProducerRebuild: Bool {
        guard let code else { return false }
        let stuck: [rd_kafka_resp_err_t] = [
            RD_KAFKA_RESP_ERR__FATAL, RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, RD_KAFKA_RESP_ERR_UNKNOWN_PRODUCER_ID,
            RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH,
        ]
        return isTransient || stuck.contains { $0.rawValue == code }
    }
}

/// The text librdkafka wrote into an error buffer (NUL-terminated).
func cBufferText(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
