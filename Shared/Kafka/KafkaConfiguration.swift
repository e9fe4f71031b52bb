/// Where the brokers are and how a client identifies itself. Shared by producers, consumers and admin calls.
public struct KafkaBrokerConfiguration: Sendable {
    /// Comma-separated `host:port` list (librdkafka's `bootstrap.servers`).
    public var bootstrapServers: String
    /// Client id shown in broker logs (`client.id`).
    public var clientId: String
    /// Authentication and encryption (`KAFKA_SECURITY_PROTOCOL`, `KAFKA_SASL_*`, `KAFKA_SSL_CA_FILE`).
    public var security: KafkaSecurity
    /// Extra librdkafka properties for anything not modelled here; applied last, so they win.
    public var extraProperties: [String: String]

    public init(
        bootstrapServers: String, clientId: String, security: KafkaSecurity = KafkaSecurity(), extraProperties: [String: String] = [:]
    ) {
        self.bootstrapServers = bootstrapServers
        self.clientId = clientId
        self.security = security
        self.extraProperties = extraProperties
    }

    var properties: [String: String] {
        [
            "bootstrap.servers": bootstrapServers, "client.id": clientId,
            // Topics are made by `platformctl create-topics` with the catalogue's partition counts, never by a
            // client's metadata request: a restarted memory broker would otherwise re-create them with its
            // default (4) the moment a producer asked, and consumers would see the partition count change.
            "allow.auto.create.topics": "false",
        ].merging(security.properties) { $1 }
    }
}

/// Producer settings. Defaults give an idempotent producer with `acks=all`, so a retry never duplicates
/// or reorders messages within a partition.
public struct KafkaProducerConfiguration: Sendable {
    public var broker: KafkaBrokerConfiguration
    /// How long librdkafka waits to fill a batch (`linger.ms`).
    public var lingerMilliseconds: Int = 5
    /// How long a message may wait for delivery before its send fails (`message.timeout.ms`).
    public var messageTimeoutMilliseconds: Int = 30_000
    /// Upper bound of messages queued inside librdkafka (`queue.buffering.max.messages`).
    public var maxQueuedMessages: Int = 1_000_000
    /// Compression codec (`compression.codec`): none, gzip, snappy, lz4 or zstd.
    public var compression: String = "lz4"

    public init(broker: KafkaBrokerConfiguration) {
        self.broker = broker
    }

    var properties: [String: String] {
        broker.properties.merging([
            "enable.idempotence": "true",
            "acks": "all",
            "linger.ms": String(lingerMilliseconds),
            "message.timeout.ms": String(messageTimeoutMilliseconds),
            "queue.buffering.max.messages": String(maxQueuedMessages),
            "compression.codec": compression,
        ]) { $1 }.merging(broker.extraProperties) { $1 }
    }
}

/// Where a consumer group starts reading a partition.
public enum KafkaStartPosition: Sendable, Equatable {
    /// The group's committed offset; the earliest message when the group has none yet.
    case committed
    /// The first message in the log, whatever the group committed before (replay).
    case beginning
    /// The first message written at or after this time. Tansu cannot seek by time (see ARCHITECTURE.md),
    /// so this reads from the beginning and skips older messages, storing their offsets as it goes.
    case timestamp(milliseconds: Int64)
}

/// Consumer settings. Offsets are stored only after the handler succeeded and committed in the background,
/// so a crash replays at most the messages since the last commit.
public struct KafkaConsumerConfiguration: Sendable {
    public var broker: KafkaBrokerConfiguration
    public var groupId: String
    public var topics: [String]
    public var startPosition: KafkaStartPosition = .committed
    /// `session.timeout.ms`. Tansu's first JoinGroup waits about half of it, hence the short default.
    public var sessionTimeoutMilliseconds: Int = 6_000
    /// `auto.commit.interval.ms`: how often stored offsets are committed.
    public var commitIntervalMilliseconds: Int = 1_000
    /// How many messages one trip to the consumer thread fetches at most.
    public var maxBatchSize: Int = 500
    /// `fetch.wait.max.ms`: how long the broker may hold a fetch that found nothing. Kafka answers as soon as
    /// data arrives; Tansu, with several partitions in one fetch, appears to hold it for up to this long.
    public var fetchWaitMaxMilliseconds: Int = 500
    /// How long a consumer whose subscribed topic was reported missing may go without partitions before its
    /// client is replaced (see `KafkaConsumer`). A healthy rejoin takes about half the session timeout.
    public var missingTopicRebuildMilliseconds: Int = 15_000
    /// `topic.metadata.refresh.interval.ms`: how often the client asks the broker about its topics. A member
    /// that joined while a subscribed topic did not exist (a broker restarted before the topics were made again)
    /// is assigned nothing and learns of the topic only at this refresh: librdkafka's 5 minutes left a restarted
    /// stack's groups idle that long, 10 s brings them back soon after the topics.
    public var metadataRefreshMilliseconds: Int = 10_000
    /// How long a member may hold no partition, although its topics have partitions, before it joins again as a
    /// new member (doubling while it keeps getting none, up to ten minutes; see `KafkaConsumer`).
    public var idleRejoinMilliseconds: Int = 30_000
    /// Topics whose partition count is known (the catalogue's): a topic found with fewer is reported (readiness).
    public var expectedPartitions: [String: Int] = [:]

    public init(broker: KafkaBrokerConfiguration, groupId: String, topics: [String]) {
        self.broker = broker
        self.groupId = groupId
        self.topics = topics
    }

    var properties: [String: String] {
        broker.properties.merging([
            "group.id": groupId,
            "enable.auto.offset.store": "false",
            "enable.auto.commit": "true",
            "auto.commit.interval.ms": String(commitIntervalMilliseconds),
            // New groups start from the beginning: Tansu's ListOffsets answers "latest" wrongly.
            "auto.offset.reset": "earliest",
            "session.timeout.ms": String(sessionTimeoutMilliseconds),
            "heartbeat.interval.ms": String(max(500, sessionTimeoutMilliseconds / 6)),
            "enable.partition.eof": "false",
            "fetch.wait.max.ms": String(fetchWaitMaxMilliseconds),
            "topic.metadata.refresh.interval.ms": String(metadataRefreshMilliseconds),
        ]) { $1 }.merging(broker.extraProperties) { $1 }
    }
}
