import CRdKafka
import Logging

/// One librdkafka consumer instance, subscribed, with the rebalance state its callback keeps. `KafkaConsumer`
/// replaces it with a fresh one when it stopped finding its topic (see `KafkaConsumer.poll`).
final class ConsumerClient: Sendable {
    let handle: RdKafkaHandle
    let context: RebalanceContext

    /// `rewound`: partitions an earlier client of the same consumer already read from the beginning (replay).
    init(
        configuration: KafkaConsumerConfiguration, logger: Logger, inHand: PartitionsInHand, rewound: Set<RebalanceContext.PartitionID> = []
    ) throws {
        let context = RebalanceContext(
            startPosition: configuration.startPosition, group: configuration.groupId, logger: logger, inHand: inHand, rewound: rewound)
        self.context = context
        handle = try RdKafkaHandle(type: RD_KAFKA_CONSUMER, properties: configuration.properties) { conf in
            rd_kafka_conf_set_rebalance_cb(conf, rebalanceCallback)
            rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(context).toOpaque())
        }
        rd_kafka_poll_set_consumer(handle.pointer)
        let list = rd_kafka_topic_partition_list_new(Int32(configuration.topics.count))
        defer { rd_kafka_topic_partition_list_destroy(list) }
        for topic in configuration.topics {
            rd_kafka_topic_partition_list_add(list, topic, RD_KAFKA_PARTITION_UA)
        }
        let code = rd_kafka_subscribe(handle.pointer, list)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR else {
            handle.destroy()
            throw KafkaError(code: code, context: "subscribe to \(configuration.topics) failed")
        }
    }

    /// Leaves the group: commits stored offsets, revokes partitions, releases the client. Blocks.
    func close() {
        rd_kafka_consumer_close(handle.pointer)
        handle.destroy()
        _ = context  // keeps the rebalance opaque alive until the client is gone
    }

    /// Releases a client that holds no partitions without the leave-group dance, which a client stuck before
    /// joining may never finish. Blocks. (Not an asynchronous close bounded in time: destroying a client while
    /// `rd_kafka_consumer_close_queue` is still being served is not safe.)
    func abandon() {
        rd_kafka_destroy_flags(handle.pointer, Int32(RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE))
        _ = context  // keeps the rebalance opaque alive until the client is gone
    }
}
