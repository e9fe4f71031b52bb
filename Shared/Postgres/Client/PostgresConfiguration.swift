import Foundation
import Logging
import NIOSSL
import PlatformCore
import PostgresNIO

/// Where a service's database is and which schema it owns. The schema becomes the connection's
/// `search_path`, so a service's SQL names its tables unqualified and cannot stray into another schema.
///
/// | variable | default |
/// |---|---|
/// | `POSTGRES_HOST`, `POSTGRES_PORT` | `127.0.0.1`, `5432`: the database server |
/// | `POSTGRES_DATABASE` | `platform` |
/// | `POSTGRES_SCHEMA` | the service's schema: the schema (and `search_path`) the service owns |
/// | `POSTGRES_USER`, `POSTGRES_PASSWORD` | the schema name, none: the service's role |
/// | `POSTGRES_MAX_CONNECTIONS` | `10`: the pool size |
/// | `POSTGRES_STATEMENT_TIMEOUT_MS` | `60000` (`0`: none): Postgres cancels any statement of the service that runs longer, so no request holds a backend for long; migrations lift it for their transaction |
/// | `POSTGRES_TLS`, `POSTGRES_TLS_CA_FILE` | `disable`, none: `require` (encrypted) or `verify-full` (encrypted, the server's certificate checked against the CA file or the system's roots, and its name against `POSTGRES_HOST`) |
public struct PostgresConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var schema: String
    public var maxConnections: Int
    /// `POSTGRES_TLS`: `disable` (the local stack's loopback), `require` (encrypted, the server unverified) or
    /// `verify-full` (encrypted, the server's certificate checked against `POSTGRES_TLS_CA_FILE` or the system's
    /// roots, and its name against `POSTGRES_HOST`).
    public var tls: TLSMode = .disable
    public var tlsCAFile: String?
    /// `POSTGRES_STATEMENT_TIMEOUT_MS`: Postgres cancels any statement of the service that runs longer, so no
    /// request (least of all an anonymous one) can hold a backend for long; nil for none. Migrations lift it.
    public var statementTimeout: Duration? = .seconds(60)

    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, require
        case verifyFull = "verify-full"
    }

    public init(
        host: String, port: Int, username: String, password: String?, database: String, schema: String,
        maxConnections: Int = 10
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
        self.maxConnections = maxConnections
    }

    /// Reads the settings of the type's table; the user and schema default to `defaultSchema`.
    public init(environment: EnvironmentReader, defaultSchema: String) throws(ConfigError) {
        let schema = environment.string("POSTGRES_SCHEMA", default: defaultSchema)
        guard SQLIdentifier.isValid(schema) else {
            throw .malformed(variable: "POSTGRES_SCHEMA", value: schema, expected: "a lower-case SQL identifier")
        }
        self.init(
            host: environment.string("POSTGRES_HOST", default: "127.0.0.1"),
            port: try environment.int("POSTGRES_PORT", default: 5432, range: 1...65535),
            username: environment.string("POSTGRES_USER", default: schema),
            password: environment.string("POSTGRES_PASSWORD"),
            database: environment.string("POSTGRES_DATABASE", default: "platform"),
            schema: schema,
            maxConnections: try environment.int("POSTGRES_MAX_CONNECTIONS", default: 10, range: 1...500)
        )
        tls =
            try environment.parsed("POSTGRES_TLS", expected: "disable, require or verify-full") { TLSMode(rawValue: $0.lowercased()) }
            ?? .disable
        tlsCAFile = try environment.parsed("POSTGRES_TLS_CA_FILE", expected: "a readable PEM file") { path in
            FileManager.default.isReadableFile(atPath: path) ? path : nil
        }
        let timeout = try environment.int("POSTGRES_STATEMENT_TIMEOUT_MS", default: 60_000, range: 0...3_600_000)
        statementTimeout = timeout == 0 ? nil : .milliseconds(timeout)
        if tlsCAFile != nil && tls != .verifyFull {
            throw .malformed(variable: "POSTGRES_TLS_CA_FILE", value: tlsCAFile ?? "", expected: "only with POSTGRES_TLS=verify-full")
        }
    }

    /// PostgresNIO's TLS setting for `tls`.
    var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable:
            return .disable
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return .require(configuration)
        case .verifyFull:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            if let tlsCAFile { configuration.trustRoots = .file(tlsCAFile) }
            return .require(configuration)
        }
    }

    /// A client whose every connection uses the service's schema, with JIT compilation off: the services'
    /// statements are short, and set-based writes over `unnest` arrays are estimated costly enough to be
    /// compiled on every execution. A profile of a places import showed LLVM taking half of Postgres' CPU
    /// (and the import at 3,000 places/s, decaying as the table grew).
    /// `statementTimeout`: Postgres cancels any statement of this client that runs longer than it (a pool for
    /// queries anyone may send may set a tighter one than the service's); `connections`: its own pool size.
    public func makeClient(logger: Logger, statementTimeout: Duration? = nil, connections: Int? = nil) -> PostgresClient {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: clientTLS)
        configuration.options.additionalStartupParameters = [("search_path", schema), ("jit", "off")]
        if let statementTimeout = statementTimeout ?? self.statementTimeout {
            configuration.options.additionalStartupParameters.append(("statement_timeout", "\(max(1, statementTimeout.wholeMilliseconds))"))
        }
        configuration.options.maximumConnections = connections ?? maxConnections
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }
}

/// SQL identifiers that configuration may put into DDL (schema names): checked, never interpolated raw otherwise.
public enum SQLIdentifier {
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_", name.count <= 63 else { return false }
        return name.allSatisfy { ($0.isLetter && $0.isLowercase && $0.isASCII) || $0.isNumber || $0 == "_" }
    }
}
