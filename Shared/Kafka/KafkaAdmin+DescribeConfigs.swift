import CRdKafka

extension KafkaAdmin {
    /// Each topic's configuration as the broker describes it (name to value); a topic the broker did not
    /// describe is missing from the answer (some Kafka-compatible brokers answer DescribeConfigs empty).
    public func topicConfigs(_ topics: [String], timeoutMilliseconds: Int32 = 15_000) async throws -> [String: [String: String]] {
        guard !topics.isEmpty else { return [:] }
        let handle = self.handle
        return try await executor.run {
            try Self.describeBlocking(handle: handle, topics: topics, timeoutMilliseconds: timeoutMilliseconds)
        }
    }

    private static func describeBlocking(
        handle: RdKafkaHandle, topics: [String], timeoutMilliseconds: Int32
    ) throws -> [String: [String: String]] {
        var resources: [OpaquePointer?] = topics.map { rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, $0) }
        defer { resources.forEach { rd_kafka_ConfigResource_destroy($0) } }
        return try adminOperation(
            handle: handle, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, named: "DescribeConfigs", timeoutMilliseconds: timeoutMilliseconds
        ) { options, queue in
            resources.withUnsafeMutableBufferPointer { buffer in
                rd_kafka_DescribeConfigs(handle.pointer, buffer.baseAddress, buffer.count, options, queue)
            }
        } read: { event in
            described(event)
        }
    }

    private static func described(_ event: OpaquePointer) -> [String: [String: String]] {
        guard let result = rd_kafka_event_DescribeConfigs_result(event) else { return [:] }
        var count = 0
        guard let described = rd_kafka_DescribeConfigs_result_resources(result, &count) else { return [:] }
        var configs: [String: [String: String]] = [:]
        for index in 0..<count {
            guard let resource = described[index], rd_kafka_ConfigResource_error(resource) == RD_KAFKA_RESP_ERR_NO_ERROR else { continue }
            let name = String(cString: rd_kafka_ConfigResource_name(resource))
            var entryCount = 0
            guard let entries = rd_kafka_ConfigResource_configs(resource, &entryCount) else { continue }
            var values: [String: String] = [:]
            for entryIndex in 0..<entryCount {
                guard let entry = entries[entryIndex], let value = rd_kafka_ConfigEntry_value(entry) else { continue }
                values[String(cString: rd_kafka_ConfigEntry_name(entry))] = String(cString: value)
            }
            if !values.isEmpty { configs[name] = values }
        }
        return configs
    }
}
