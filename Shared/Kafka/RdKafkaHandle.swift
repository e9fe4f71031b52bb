import CRdKafka

/// Owns one `rd_kafka_t`. librdkafka documents its client handle as thread-safe (every public call takes
/// its own locks), which is what makes sharing the pointer across threads sound; `destroy()` is called
/// exactly once by the owner after every other use ended.
final class RdKafkaHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Creates a client of `type` from `properties`, after `prepare` had a chance to set callbacks.
    init(
        type: rd_kafka_type_t,
        properties: [String: String],
        prepare: (OpaquePointer) -> Void = { _ in }
    ) throws {
        guard let conf = rd_kafka_conf_new() else { throw KafkaError("rd_kafka_conf_new failed") }
        var errorBuffer = [CChar](repeating: 0, count: 512)
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
            let result = rd_kafka_conf_set(conf, name, value, &errorBuffer, errorBuffer.count)
            if result != RD_KAFKA_CONF_OK {
                rd_kafka_conf_destroy(conf)
                throw KafkaError("invalid Kafka property \(name)=\(value): \(cBufferText(errorBuffer))")
            }
        }
        KafkaThreadFaultSignals.install(on: conf)
        prepare(conf)
        // rd_kafka_new takes ownership of conf on success only.
        guard let handle = rd_kafka_new(type, conf, &errorBuffer, errorBuffer.count) else {
            rd_kafka_conf_destroy(conf)
            throw KafkaError("could not create Kafka client: \(cBufferText(errorBuffer))")
        }
        pointer = handle
    }

    func destroy() {
        rd_kafka_destroy(pointer)
    }

    /// Asks the cluster for its broker list; blocks up to `timeoutMilliseconds`. Call it off the cooperative pool.
    func brokerCount(timeoutMilliseconds: Int32) throws -> Int {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let error = rd_kafka_metadata(pointer, 0, nil, &metadata, timeoutMilliseconds)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            throw KafkaError(code: error, context: "metadata request failed")
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        return Int(metadata.pointee.broker_cnt)
    }

    /// The number of partitions of `topic`; throws when the broker does not know it. Blocks up to
    /// `timeoutMilliseconds`: call it off the cooperative pool.
    func partitionCount(of topic: String, timeoutMilliseconds: Int32) throws -> Int {
        guard let topicHandle = rd_kafka_topic_new(pointer, topic, nil) else { throw KafkaError("rd_kafka_topic_new failed") }
        defer { rd_kafka_topic_destroy(topicHandle) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let code = rd_kafka_metadata(pointer, 0, topicHandle, &metadata, timeoutMilliseconds)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else { throw KafkaError(code: code, context: "metadata of \(topic) failed") }
        defer { rd_kafka_metadata_destroy(metadata) }
        guard metadata.pointee.topic_cnt > 0 else { throw KafkaError("no metadata for \(topic)") }
        let info = metadata.pointee.topics[0]
        guard info.err == RD_KAFKA_RESP_ERR_NO_ERROR, info.partition_cnt > 0 else {
            throw KafkaError(code: info.err, context: "topic \(topic) is not known to the broker")
        }
        return Int(info.partition_cnt)
    }
}
