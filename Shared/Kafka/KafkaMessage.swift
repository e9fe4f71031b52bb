import CRdKafka

/// A header of a Kafka message.
public struct KafkaHeader: Sendable, Equatable {
    public var name: String
    public var value: [UInt8]

    public init(name: String, value: [UInt8]) {
        self.name = name
        self.value = value
    }

    public init(name: String, string: String) {
        self.init(name: name, value: Array(string.utf8))
    }

    public var stringValue: String { String(decoding: value, as: UTF8.self) }
}

/// A message to produce.
public struct KafkaOutgoingMessage: Sendable {
    public var topic: String
    public var key: [UInt8]?
    public var value: [UInt8]
    public var headers: [KafkaHeader]

    public init(topic: String, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = []) {
        self.topic = topic
        self.key = key
        self.value = value
        self.headers = headers
    }

    public init(topic: String, key: String, value: [UInt8], headers: [KafkaHeader] = []) {
        self.init(topic: topic, key: Array(key.utf8), value: value, headers: headers)
    }
}

/// A consumed message, copied out of librdkafka's buffers.
public struct KafkaMessage: Sendable {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
    public var key: [UInt8]?
    public var value: [UInt8]
    public var headers: [KafkaHeader]
    /// Milliseconds since the epoch, when the broker reported a timestamp.
    public var timestampMilliseconds: Int64?

    public var keyString: String? { key.map { String(decoding: $0, as: UTF8.self) } }

    public func header(_ name: String) -> KafkaHeader? { headers.first { $0.name == name } }

    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader],
        timestampMilliseconds: Int64?
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// Copies a message out of librdkafka; the caller still owns (and destroys) `raw`.
    init(copying raw: UnsafeMutablePointer<rd_kafka_message_t>) {
        let message = raw.pointee
        topic = String(cString: rd_kafka_topic_name(message.rkt))
        partition = message.partition
        offset = message.offset
        key = message.key.map { Array(UnsafeRawBufferPointer(start: $0, count: message.key_len)) }
        value = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: message.len)) } ?? []
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(raw, &timestampType)
        timestampMilliseconds = timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp
        headers = Self.copyHeaders(of: raw)
    }

    private static func copyHeaders(of raw: UnsafeMutablePointer<rd_kafka_message_t>) -> [KafkaHeader] {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(raw, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        var result: [KafkaHeader] = []
        var index = 0
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        while rd_kafka_header_get_all(list, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
            let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
            result.append(KafkaHeader(name: name.map { String(cString: $0) } ?? "", value: bytes))
            index += 1
        }
        return result
    }
}
