import Foundation
import PlatformCore

/// How every Kafka client of a service authenticates and encrypts (producers, consumers, admin calls alike),
/// passed to librdkafka as its own properties. The local broker speaks plaintext; a production cluster
/// usually wants `sasl_ssl` with SCRAM.
///
/// | variable | default |
/// |---|---|
/// | `KAFKA_SECURITY_PROTOCOL` | `plaintext` (or `ssl`, `sasl_plaintext`, `sasl_ssl`) |
/// | `KAFKA_SASL_MECHANISM` | `SCRAM-SHA-512` with `sasl_*` (or `SCRAM-SHA-256`, `PLAIN`) |
/// | `KAFKA_SASL_USERNAME`, `KAFKA_SASL_PASSWORD` | required with `sasl_*` |
/// | `KAFKA_SSL_CA_FILE` | none: the system's roots; a PEM file of the CA that signed the brokers' certificates |
public struct KafkaSecurity: Sendable {
    public enum SecurityProtocol: String, Sendable, CaseIterable {
        case plaintext, ssl
        case saslPlaintext = "sasl_plaintext"
        case saslSSL = "sasl_ssl"

        var usesSASL: Bool { self == .saslPlaintext || self == .saslSSL }
        var usesTLS: Bool { self == .ssl || self == .saslSSL }
    }

    public var securityProtocol: SecurityProtocol = .plaintext
    public var saslMechanism: String?
    public var saslUsername: String?
    public var saslPassword: Secret?
    public var caFile: String?

    public init() {}

    public init(environment: EnvironmentReader) throws(ConfigError) {
        securityProtocol =
            try environment.parsed(
                "KAFKA_SECURITY_PROTOCOL", expected: "plaintext, ssl, sasl_plaintext or sasl_ssl",
                { SecurityProtocol(rawValue: $0.lowercased()) }) ?? .plaintext
        if securityProtocol.usesSASL {
            saslMechanism =
                try environment.parsed(
                    "KAFKA_SASL_MECHANISM", expected: "SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN",
                    { ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"].contains($0.uppercased()) ? $0.uppercased() : nil }) ?? "SCRAM-SHA-512"
            saslUsername = try environment.requiredString("KAFKA_SASL_USERNAME")
            saslPassword = Secret(try environment.requiredString("KAFKA_SASL_PASSWORD"))
        }
        caFile = try environment.parsed("KAFKA_SSL_CA_FILE", expected: "a readable PEM file") { path in
            FileManager.default.isReadableFile(atPath: path) ? path : nil
        }
        if caFile != nil && !securityProtocol.usesTLS {
            throw .malformed(variable: "KAFKA_SSL_CA_FILE", value: caFile ?? "", expected: "only with KAFKA_SECURITY_PROTOCOL ssl or sasl_ssl")
        }
    }

    /// librdkafka's names for these settings.
    public var properties: [String: String] {
        var properties = ["security.protocol": securityProtocol.rawValue]
        if let saslMechanism { properties["sasl.mechanisms"] = saslMechanism }
        if let saslUsername { properties["sasl.username"] = saslUsername }
        if let saslPassword { properties["sasl.password"] = saslPassword.value }
        if let caFile { properties["ssl.ca.location"] = caFile }
        return properties
    }
}
