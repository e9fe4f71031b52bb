/// Start-up fails with one of these when configuration is missing or malformed; the message names the variable.
public enum ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    case missing(variable: String)
    case malformed(variable: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .missing(let variable):
            "configuration error: \(variable) is required but not set"
        case .malformed(let variable, let value, let expected):
            "configuration error: \(variable)=\"\(value)\" is not valid (expected \(expected))"
        }
    }
}
