import CRdKafka
import Synchronization

/// librdkafka topic handles by name, created once per topic. Producing by handle spares librdkafka a topic
/// lookup (and its lock) per message. Handles are released before the client is destroyed.
final class TopicHandleCache: Sendable {
    /// Pointers stored as bit patterns so the dictionary is Sendable; they are only dereferenced by librdkafka.
    private let handles = Mutex<[String: UInt]>([:])

    func handle(for topic: String, client: RdKafkaHandle) -> OpaquePointer? {
        handles.withLock { handles in
            if let existing = handles[topic] { return OpaquePointer(bitPattern: existing) }
            guard let created = rd_kafka_topic_new(client.pointer, topic, nil) else { return nil }
            handles[topic] = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(created)))
            return created
        }
    }

    func releaseAll() {
        let all = handles.withLock { handles in
            defer { handles.removeAll() }
            return Array(handles.values)
        }
        for bits in all { rd_kafka_topic_destroy(OpaquePointer(bitPattern: bits)) }
    }
}
