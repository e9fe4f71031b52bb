import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres

/// Everything the platform part of a service reads from its environment, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `HTTP_HOST`, `HTTP_PORT` | `127.0.0.1`, the service's port: where the HTTP API listens |
/// | `METRICS_HOST`, `METRICS_PORT` | `HTTP_HOST`, the HTTP port + 1000 (`0`, any free port, when `HTTP_PORT` is `0`): `/metrics` is served there only, never on the public listener |
/// | `POSTGRES_*` | see `PostgresConfiguration` |
/// | `KAFKA_BROKERS` | `127.0.0.1:9092`: the bootstrap servers |
/// | `KAFKA_SECURITY_PROTOCOL`, `KAFKA_SASL_*`, `KAFKA_SSL_CA_FILE` | plaintext: see `KafkaSecurity` |
/// | `KAFKA_GROUP_ID` | the service name: the consumer group (change it to replay) |
/// | `KAFKA_START_POSITION` | `committed` (or `beginning`, or `timestamp:<epoch ms>`) |
/// | `KAFKA_DEBUG` | empty: librdkafka debug contexts (`cgrp,metadata,topic`...) on stderr, for diagnosing a client |
/// | `KAFKA_SESSION_TIMEOUT_MS` | `6000`: the group session timeout (Tansu joins take about half of it) |
/// | `KAFKA_MESSAGE_TIMEOUT_MS` | `30000`: how long a publish may wait for the broker |
/// | `KAFKA_FETCH_WAIT_MAX_MS` | `500`: librdkafka's `fetch.wait.max.ms`, how long the broker may hold an empty fetch. Kafka answers as soon as data arrives; Tansu holds multi-partition fetches this long, so on Tansu it is the consumers' latency (the local stack sets `100`) |
/// | `KAFKA_IDLE_REJOIN_MS` | `30000`: a consumer holding no partition this long, although its topics have partitions, joins again as a new member (the wait doubles, up to ten minutes, while it keeps getting none) |
/// | `KAFKA_UNASSIGNED_READY_LIMIT_MS` | `60000`: a consumer holding no partition longer than this, although its topics have partitions, makes `/ready` answer 503 (run no more instances than a topic has partitions) |
/// | `TRACE_TRUSTED_CALLERS` | none: IP networks whose incoming `traceparent` is continued; everyone else starts a trace of their own. The check sees the connection's peer: behind an ingress, list the ingress only if it strips clients' `traceparent` |
/// | `OUTBOX_*` | see `OutboxRelayConfiguration` |
/// | `CONSUMER_MAX_ATTEMPTS` | `5`: tries of an event whose handler fails with an unclassified error, before dead-lettering |
/// | `CONSUMER_BATCH_SIZE` | `2000`: messages per poll (librdkafka hands them out a partition at a time, so a poll must be large to span partitions) |
/// | `CONSUMER_POLLS_AHEAD` | `4`: polls' worth of messages the consumer may hold beyond what it has applied: it polls and decodes the next batches while the current ones' transactions run, and applies other partitions' batches beside them (`0`: poll only once everything polled is applied) |
/// | `CONSUMER_MAX_CRASHES` | `3`: times one message may take the process down before it is dead-lettered unread |
/// | `CONSUMER_STEP_TIMEOUT_MS` | `30000`: a batch's transaction taking longer is cancelled and retried (a query begun as Postgres goes down may never return) |
/// | `CONSUMER_PAUSE_LIMIT_MS` | `30000`: a partition paused on transient failures longer than this makes `/ready` answer 503 |
/// | `TRUSTED_PROXIES` | none: comma-separated addresses or networks (`10.0.0.0/8, ::1`) whose forwarded header names the client; per-address limits and request logs then use the client's address |
/// | `TRUSTED_PROXY_HEADER` | `x-forwarded-for` (or `forwarded`): the one header those proxies write; the other is never read |
/// | `AUTH_ISSUER` | `mobile-backend-auth`: the issuer auth signs with and every service expects |
/// | `LOG_LEVEL` | `info` (`trace` … `critical`) |
public struct PlatformConfiguration: Sendable {
    public var identity: ServiceIdentity
    public var httpHost: String
    public var httpPort: Int
    /// Where `/metrics` is served: a listener of its own, so the public one (behind an ingress) never exposes it.
    public var metricsHost: String
    public var metricsPort: Int
    public var postgres: PostgresConfiguration
    public var kafkaBrokers: String
    public var kafkaSecurity: KafkaSecurity
    /// librdkafka debug contexts (`KAFKA_DEBUG`, e.g. `cgrp,topic,fetch`), for diagnosing a client; empty is off.
    public var kafkaDebug: String
    public var consumerGroupId: String
    public var startPosition: KafkaStartPosition
    public var sessionTimeoutMilliseconds: Int
    public var messageTimeoutMilliseconds: Int
    public var fetchWaitMaxMilliseconds: Int
    public var idleRejoinMilliseconds: Int
    /// How long a consumer may hold no partition (its topics having some) before `/ready` says so.
    public var consumerUnassignedLimit: Duration
    public var outbox: OutboxRelayConfiguration
    public var retryPolicy: RetryPolicy
    public var consumerMaxCrashes: Int
    /// Messages one poll takes at most; split by partition, the partitions are applied concurrently.
    public var consumerBatchSize: Int
    /// Polls' worth of messages held beyond what is applied (`EventConsumerService.pollsAhead`).
    public var consumerPollsAhead: Int
    public var consumerPauseLimit: Duration
    public var logLevel: Logger.Level
    /// Proxies whose forwarded client address is believed; empty: the connection's peer is the client.
    public var trustedProxies: [IPNetwork]
    public var trustedProxyHeader: ClientAddress.Header
    /// `TRACE_TRUSTED_CALLERS`: peers whose incoming `traceparent` is continued; from anyone else a request
    /// starts a trace of its own (empty, the default: every request does).
    public var traceTrustedCallers: [IPNetwork]
    /// `AUTH_ISSUER`: the issuer the auth service signs with and every service expects.
    public var tokenIssuer: String

    public init(identity: ServiceIdentity, environment: EnvironmentReader) throws(ConfigError) {
        self.identity = identity
        httpHost = environment.string("HTTP_HOST", default: "127.0.0.1")
        httpPort = try environment.int("HTTP_PORT", default: identity.defaultPort, range: 0...65535)
        metricsHost = environment.string("METRICS_HOST", default: httpHost)
        metricsPort = try environment.int("METRICS_PORT", default: (1...64_535).contains(httpPort) ? httpPort + 1_000 : 0, range: 0...65535)
        if metricsPort != 0, metricsPort == httpPort {
            throw ConfigError.malformed(variable: "METRICS_PORT", value: "\(metricsPort)", expected: "a port other than HTTP_PORT")
        }
        postgres = try PostgresConfiguration(environment: environment, defaultSchema: identity.schema)
        kafkaBrokers = environment.string("KAFKA_BROKERS", default: "127.0.0.1:9092")
        kafkaSecurity = try KafkaSecurity(environment: environment)
        kafkaDebug = environment.string("KAFKA_DEBUG", default: "")
        consumerGroupId = environment.string("KAFKA_GROUP_ID", default: identity.name)
        startPosition =
            try environment.parsed(
                "KAFKA_START_POSITION", expected: "committed, beginning or timestamp:<epoch milliseconds>", Self.parseStartPosition)
            ?? .committed
        sessionTimeoutMilliseconds = try environment.int("KAFKA_SESSION_TIMEOUT_MS", default: 6_000, range: 1_000...300_000)
        messageTimeoutMilliseconds = try environment.int("KAFKA_MESSAGE_TIMEOUT_MS", default: 30_000, range: 1_000...900_000)
        fetchWaitMaxMilliseconds = try environment.int("KAFKA_FETCH_WAIT_MAX_MS", default: 500, range: 1...30_000)
        idleRejoinMilliseconds = try environment.int("KAFKA_IDLE_REJOIN_MS", default: 30_000, range: 5_000...3_600_000)
        consumerUnassignedLimit = try environment.milliseconds("KAFKA_UNASSIGNED_READY_LIMIT_MS", default: 60_000, range: 1_000...3_600_000)
        trustedProxies =
            try environment.parsed(
                "TRUSTED_PROXIES", expected: "comma-separated IP addresses or networks such as 10.0.0.0/8", Self.parseNetworks) ?? []
        traceTrustedCallers =
            try environment.parsed(
                "TRACE_TRUSTED_CALLERS", expected: "comma-separated IP addresses or networks such as 10.0.0.0/8", Self.parseNetworks) ?? []
        trustedProxyHeader =
            try environment.parsed(
                "TRUSTED_PROXY_HEADER", expected: "x-forwarded-for or forwarded", { ClientAddress.Header(rawValue: $0.lowercased()) })
            ?? .xForwardedFor
        outbox = try OutboxRelayConfiguration(environment: environment)
        retryPolicy = RetryPolicy(
            maxAttempts: try environment.int("CONSUMER_MAX_ATTEMPTS", default: 5, range: 1...100),
            stepTimeLimit: try environment.milliseconds("CONSUMER_STEP_TIMEOUT_MS", default: 30_000, range: 1_000...3_600_000))
        consumerMaxCrashes = try environment.int("CONSUMER_MAX_CRASHES", default: 3, range: 1...100)
        consumerBatchSize = try environment.int("CONSUMER_BATCH_SIZE", default: 2_000, range: 1...100_000)
        consumerPollsAhead = try environment.int("CONSUMER_POLLS_AHEAD", default: 4, range: 0...16)
        consumerPauseLimit = try environment.milliseconds("CONSUMER_PAUSE_LIMIT_MS", default: 30_000, range: 1_000...3_600_000)
        tokenIssuer = environment.string("AUTH_ISSUER", default: "mobile-backend-auth")
        logLevel =
            try environment.parsed("LOG_LEVEL", expected: "trace, debug, info, notice, warning, error or critical") {
                Logger.Level(rawValue: $0.lowercased())
            } ?? .info
    }

    static func parseNetworks(_ text: String) -> [IPNetwork]? {
        let entries = text.split(separator: ",").map { String($0).filter { $0 != " " } }.filter { !$0.isEmpty }
        let networks = entries.compactMap(IPNetwork.init)
        return networks.count == entries.count ? networks : nil
    }

    static func parseStartPosition(_ text: String) -> KafkaStartPosition? {
        switch text {
        case "committed": return .committed
        case "beginning", "earliest": return .beginning
        default:
            guard text.hasPrefix("timestamp:"), let milliseconds = Int64(text.dropFirst("timestamp:".count)) else { return nil }
            return .timestamp(milliseconds: milliseconds)
        }
    }

    public var broker: KafkaBrokerConfiguration {
        KafkaBrokerConfiguration(
            bootstrapServers: kafkaBrokers, clientId: identity.name, security: kafkaSecurity,
            extraProperties: kafkaDebug.isEmpty ? [:] : ["debug": kafkaDebug])
    }

    public var producer: KafkaProducerConfiguration {
        var configuration = KafkaProducerConfiguration(broker: broker)
        configuration.messageTimeoutMilliseconds = messageTimeoutMilliseconds
        return configuration
    }

    public func consumer(topics: [String]) -> KafkaConsumerConfiguration {
        var configuration = KafkaConsumerConfiguration(broker: broker, groupId: consumerGroupId, topics: topics)
        configuration.startPosition = startPosition
        configuration.sessionTimeoutMilliseconds = sessionTimeoutMilliseconds
        configuration.fetchWaitMaxMilliseconds = fetchWaitMaxMilliseconds
        configuration.maxBatchSize = consumerBatchSize
        configuration.idleRejoinMilliseconds = idleRejoinMilliseconds
        return configuration
    }
}
