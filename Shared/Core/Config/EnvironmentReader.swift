import Foundation

/// Reads configuration from environment variables. Every accessor names the variable in its error, and
/// an empty value counts as unset. Pass a dictionary in tests; services pass the process environment.
public struct EnvironmentReader: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// A copy with `overrides` taking precedence.
    public func merging(_ overrides: [String: String]) -> EnvironmentReader {
        EnvironmentReader(values.merging(overrides) { $1 })
    }

    public func string(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    public func string(_ name: String, default fallback: String) -> String {
        string(name) ?? fallback
    }

    public func requiredString(_ name: String) throws(ConfigError) -> String {
        guard let value = string(name) else { throw .missing(variable: name) }
        return value
    }

    /// A shared secret (an HMAC key, say): nil when unset, refused when shorter than `minimumLength` characters,
    /// so a guessable word never keys anything. The error never shows the value.
    public func secret(_ name: String, minimumLength: Int = 32) throws(ConfigError) -> String? {
        guard let value = string(name) else { return nil }
        guard value.count >= minimumLength else {
            throw .malformed(variable: name, value: value, expected: "a secret of at least \(minimumLength) characters (e.g. openssl rand -hex 32)")
        }
        return value
    }

    /// A shared secret that must be set (see `secret`): there is no public default to fall back on.
    public func requiredSecret(_ name: String, minimumLength: Int = 32) throws(ConfigError) -> String {
        guard let value = try secret(name, minimumLength: minimumLength) else { throw .missing(variable: name) }
        return value
    }

    public func int(_ name: String, default fallback: Int, range: ClosedRange<Int> = Int.min...Int.max) throws(ConfigError) -> Int {
        guard let text = string(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw .malformed(variable: name, value: text, expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    public func bool(_ name: String, default fallback: Bool) throws(ConfigError) -> Bool {
        guard let text = string(name)?.lowercased() else { return fallback }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .malformed(variable: name, value: text, expected: "true or false")
        }
    }

    /// A duration given in milliseconds.
    public func milliseconds(_ name: String, default fallback: Int, range: ClosedRange<Int> = 1...86_400_000) throws(ConfigError) -> Duration {
        .milliseconds(try int(name, default: fallback, range: range))
    }

    /// A value parsed by `parse`, which returns nil for a malformed value.
    public func parsed<Value>(_ name: String, expected: String, _ parse: (String) -> Value?) throws(ConfigError) -> Value? {
        guard let text = string(name) else { return nil }
        guard let value = parse(text) else { throw .malformed(variable: name, value: text, expected: expected) }
        return value
    }
}
