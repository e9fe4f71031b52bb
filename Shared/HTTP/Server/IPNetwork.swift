#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 network written as `address/prefix` (a bare address is a single host), for the list of
/// trusted proxies. Addresses are compared as bytes; an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) matches
/// the IPv4 network it maps to.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefixLength: Int
    public let description: String

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let addressText = parts.first, let address = IPNetwork.bytes(of: String(addressText)) else { return nil }
        let bits = address.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefix = length
        }
        bytes = address
        prefixLength = prefix
        description = text
    }

    /// Whether `address` (an IP address as text) lies in this network; false for anything that is not an address.
    public func contains(_ address: String) -> Bool {
        guard var candidate = IPNetwork.bytes(of: address) else { return false }
        if candidate.count == 16, bytes.count == 4, candidate.prefix(12) == IPNetwork.mappedPrefix[...] {
            candidate = Array(candidate.suffix(4))
        }
        guard candidate.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, candidate) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }

    private static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

    /// The 4 or 16 bytes of an address, or nil. A zone (`fe80::1%eth0`) is dropped.
    static func bytes(of text: String) -> [UInt8]? {
        let address = String(text.prefix { $0 != "%" })
        guard !address.isEmpty, address.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
