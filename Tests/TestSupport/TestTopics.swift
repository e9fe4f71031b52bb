import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka

/// Creates uniquely named topics (and their dead-letter topics) on the shared test broker.
public func withTopic<Result: Sendable>(
    partitions: Int = 1, _ body: @Sendable (String) async throws -> Result
) async throws -> Result {
    let name = "test.\(uniqueSuffix())"
    try await createTopics([name], partitions: partitions, brokers: TestInfrastructure.current.kafkaBrokers)
    return try await body(name)
}

public func createTopics(_ names: [String], partitions: Int, brokers: String) async throws {
    // The benches pass their own broker; the tests' default one says why it is missing.
    if brokers == TestInfrastructure.current.kafkaBrokers { try TestInfrastructure.current.check() }
    let admin = try KafkaAdmin(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "test-admin"))
    try await admin.createTopics(
        names.flatMap {
            [KafkaTopicSpec(name: $0, partitions: partitions), KafkaTopicSpec(name: Topic.deadLetterName(of: $0), partitions: 1)]
        })
}

/// A producer on the test broker; closed after `body`.
@discardableResult
public func withProducer<Result: Sendable>(
    brokers: String = TestInfrastructure.current.kafkaBrokers, messageTimeoutMilliseconds: Int = 30_000,
    _ body: @Sendable (KafkaProducer) async throws -> Result
) async throws -> Result {
    try TestInfrastructure.current.check()
    var configuration = KafkaProducerConfiguration(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "test-producer"))
    configuration.messageTimeoutMilliseconds = messageTimeoutMilliseconds
    let producer = try KafkaProducer(configuration: configuration, logger: Logger(label: "test-producer"))
    do {
        let result = try await body(producer)
        try await producer.close()
        return result
    } catch {
        try? await producer.close()
        throw error
    }
}

public func makeConsumer(
    topics: [String], group: String, startPosition: KafkaStartPosition = .committed,
    brokers: String = TestInfrastructure.current.kafkaBrokers, missingTopicRebuildMilliseconds: Int? = nil,
    idleRejoinMilliseconds: Int? = nil, maxBatchSize: Int? = nil
) throws -> KafkaConsumer {
    try TestInfrastructure.current.check()
    var configuration = KafkaConsumerConfiguration(
        broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "test-consumer"), groupId: group, topics: topics)
    configuration.startPosition = startPosition
    if let missingTopicRebuildMilliseconds { configuration.missingTopicRebuildMilliseconds = missingTopicRebuildMilliseconds }
    if let idleRejoinMilliseconds { configuration.idleRejoinMilliseconds = idleRejoinMilliseconds }
    if let maxBatchSize { configuration.maxBatchSize = maxBatchSize }
    configuration.commitIntervalMilliseconds = 200
    return try KafkaConsumer(configuration: configuration, logger: Logger(label: "test-consumer"))
}

/// Reads from `consumer` until `count` messages arrived or `timeout` passed; stores each offset.
public func collect(
    _ count: Int, from consumer: KafkaConsumer, timeout: Duration = .seconds(30), storeOffsets: Bool = true
) async throws -> [KafkaMessage] {
    var messages: [KafkaMessage] = []
    let deadline = ContinuousClock.now + timeout
    while messages.count < count && ContinuousClock.now < deadline {
        for message in try await consumer.poll() {
            messages.append(message)
            if storeOffsets { consumer.storeOffset(of: message) }
        }
    }
    return messages
}

/// Publishes `envelope` to `topic` as its producer would, keyed by its key.
public func publishEnvelope<Payload: Codable & Sendable>(_ envelope: EventEnvelope<Payload>, to topic: String) async throws {
    try await withProducer { producer in
        try await producer.send(KafkaOutgoingMessage(topic: topic, key: envelope.key, value: try envelope.encoded()))
    }
}

/// Every message on `topics` (of `partitions` partitions each) from their beginning, read by a group of its own until
/// it holds every partition and has reached each one's high watermark, three polls in a row with nothing new: what a
/// rebuild or anyone with read access would find there now. Throws when it has not caught up within `timeout`.
public func readFromBeginning(_ topics: [String], partitions: Int, timeout: Duration = .seconds(60)) async throws -> [KafkaMessage] {
    let consumer = try makeConsumer(topics: topics, group: "read-\(uniqueSuffix())", startPosition: .beginning)
    var messages: [KafkaMessage] = []
    var quietPolls = 0
    let deadline = ContinuousClock.now + timeout
    while quietPolls < 3 && ContinuousClock.now < deadline {
        let batch = try await consumer.poll()
        messages += batch
        let lags = consumer.lagByPartition()
        let caughtUp = batch.isEmpty && lags.count == topics.count * partitions && lags.allSatisfy { $0.lag == 0 }
        quietPolls = caughtUp ? quietPolls + 1 : 0
    }
    await consumer.close()
    guard quietPolls >= 3 else {
        throw HarnessError("\(topics) not read to their end within \(timeout): \(messages.count) message(s) so far")
    }
    return messages
}
