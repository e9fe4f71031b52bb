import CRdKafka
import PlatformCore

/// Cluster administration the platform needs: creating topics (local stack, tests) and checking reachability.
public final class KafkaAdmin: Sendable {
    let handle: RdKafkaHandle
    let executor: BlockingExecutor

    public init(broker: KafkaBrokerConfiguration) throws {
        handle = try RdKafkaHandle(
            type: RD_KAFKA_PRODUCER, properties: broker.properties.merging(broker.extraProperties) { $1 })
        executor = BlockingExecutor(label: "kafka.admin.\(broker.clientId)")
    }

    deinit {
        handle.destroy()
    }

    /// Creates the topics that do not exist yet; an existing topic is not an error. Blocks a dispatch thread,
    /// never the cooperative pool, for at most `timeoutMilliseconds`.
    public func createTopics(_ topics: [KafkaTopicSpec], timeoutMilliseconds: Int32 = 15_000) async throws {
        guard !topics.isEmpty else { return }
        let handle = self.handle
        try await executor.run {
            try Self.createTopicsBlocking(handle: handle, topics: topics, timeoutMilliseconds: timeoutMilliseconds)
        }
    }

    /// Number of brokers that answered a metadata request; throws when none did within the timeout.
    public func brokerCount(timeoutMilliseconds: Int32 = 5_000) async throws -> Int {
        let handle = self.handle
        return try await executor.run { try handle.brokerCount(timeoutMilliseconds: timeoutMilliseconds) }
    }

    private static func createTopicsBlocking(
        handle: RdKafkaHandle, topics: [KafkaTopicSpec], timeoutMilliseconds: Int32
    ) throws {
        var errorBuffer = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { newTopics.forEach { rd_kafka_NewTopic_destroy($0) } }
        for topic in topics {
            guard let newTopic = rd_kafka_NewTopic_new(topic.name, Int32(topic.partitions), 1, &errorBuffer, errorBuffer.count)
            else { throw KafkaError("invalid topic \(topic.name): \(cBufferText(errorBuffer))") }
            newTopics.append(newTopic)
            for (name, value) in topic.configs.sorted(by: { $0.key < $1.key }) {
                let code = rd_kafka_NewTopic_set_config(newTopic, name, value)
                guard code == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(code: code, context: "topic \(topic.name): config \(name)") }
            }
        }
        try adminOperation(handle: handle, RD_KAFKA_ADMIN_OP_CREATETOPICS, named: "CreateTopics", timeoutMilliseconds: timeoutMilliseconds) {
            options, queue in
            newTopics.withUnsafeMutableBufferPointer { buffer in
                rd_kafka_CreateTopics(handle.pointer, buffer.baseAddress, buffer.count, options, queue)
            }
        } read: { event in
            try checkCreated(event)
        }
    }

    private static func checkCreated(_ event: OpaquePointer) throws {
        guard let result = rd_kafka_event_CreateTopics_result(event) else { return }
        var count = 0
        guard let results = rd_kafka_CreateTopics_result_topics(result, &count) else { return }
        for index in 0..<count {
            let topicResult = results[index]
            let code = rd_kafka_topic_result_error(topicResult)
            if code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS {
                let name = String(cString: rd_kafka_topic_result_name(topicResult))
                throw KafkaError(code: code, context: "could not create topic \(name)")
            }
        }
    }

    /// Sends one admin request (`send` gets the options and the queue its answer comes to) and reads the answer's
    /// event; blocks for at most the timeout plus a second.
    static func adminOperation<Result>(
        handle: RdKafkaHandle, _ operation: rd_kafka_admin_op_t, named name: String, timeoutMilliseconds: Int32,
        send: (OpaquePointer?, OpaquePointer) -> Void, read: (OpaquePointer) throws -> Result
    ) throws -> Result {
        var errorBuffer = [CChar](repeating: 0, count: 512)
        guard let queue = rd_kafka_queue_new(handle.pointer) else { throw KafkaError("rd_kafka_queue_new failed") }
        defer { rd_kafka_queue_destroy(queue) }
        let options = rd_kafka_AdminOptions_new(handle.pointer, operation)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_request_timeout(options, timeoutMilliseconds, &errorBuffer, errorBuffer.count)
        send(options, queue)
        guard let event = rd_kafka_queue_poll(queue, timeoutMilliseconds + 1_000) else {
            throw KafkaError("\(name) timed out", code: RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue)
        }
        defer { rd_kafka_event_destroy(event) }
        let eventError = rd_kafka_event_error(event)
        guard eventError == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(code: eventError, context: "\(name) failed") }
        return try read(event)
    }
}
