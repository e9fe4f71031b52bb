/// One versioned change to a service's schema. Statements run in order inside one transaction; postgres-nio
/// sends each as its own statement, so a migration lists them rather than one long script.
public struct Migration: Sendable {
    /// Unique, ordered id, e.g. `0001_create_cities`. Applied ids are recorded and never run again.
    public let id: String
    public let statements: [String]

    public init(_ id: String, _ statements: [String]) {
        self.id = id
        self.statements = statements
    }

    /// A checksum of the statements, so an edited, already applied migration is detected instead of ignored.
    var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in statements.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
