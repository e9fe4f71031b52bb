/// Start-up fails with one of these when configuration is missing or malformed; the message names the variable.
public enum ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    case missing(variable: String)
    case malformed(variable: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .missing(let variable):
            "configuration error: \(variable) is required but not set"
        case .malformed(let variable, let value, let expected) where Self.holdsSecret(variable):
            // A key list or a password with one typo is still mostly the secret: it never reaches a log.
            "configuration error: \(variable) (\(value.count) characters, not shown) is not valid (expected \(expected))"
        case .malformed(let variable, let value, let expected):
            "configuration error: \(variable)=\"\(value)\" is not valid (expected \(expected))"
        }
    }

    /// Whether a variable's value is a secret by its name (`*KEY*`, `*SECRET*`, `*PASSWORD*`, `*TOKEN*`).
    static func holdsSecret(_ variable: String) -> Bool {
        let name = variable.uppercased()
        return ["KEY", "SECRET", "PASSWORD", "TOKEN", "CREDENTIAL"].contains { name.contains($0) }
    }
}
