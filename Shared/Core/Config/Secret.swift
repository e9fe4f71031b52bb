/// A configuration value that must never be printed: keys, passwords, tokens. Its description is redacted,
/// so a struct holding it can be logged (ServiceLifecycle logs its services at debug level) without leaking it.
public struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
