import PlatformCore

/// The client's address when the service runs behind proxies (load balancers, ingress): the address a
/// connection came from is the proxy's, and the client's is in `X-Forwarded-For` (or `Forwarded: for=`),
/// which anybody can write. So the headers are read only when the connection came from a trusted proxy, and
/// then right to left: each trusted hop is skipped and the first address no trusted proxy wrote is the
/// client's. Per-address limits count that address.
public enum ClientAddress {
    /// Which header the trusted proxies write. Only that one is read: a proxy that writes one and passes the
    /// other through from the client would otherwise let the client pick its address.
    public enum Header: String, Sendable, CaseIterable {
        case xForwardedFor = "x-forwarded-for"
        case forwarded
    }

    /// `values`: the lines of the configured header.
    public static func resolve(peer: String, header: Header, values: [String], trustedProxies: [IPNetwork]) -> String {
        guard isTrusted(peer, trustedProxies) else { return peer }
        let hops: [String] =
            switch header {
            case .xForwardedFor: values.flatMap { $0.split(separator: ",") }.map { normalized(String($0)) }
            case .forwarded: values.flatMap(forwardedForValues)
            }
        for hop in hops.reversed() where !isTrusted(hop, trustedProxies) {
            // A hop that is not an address at all ends the trust: use it as an opaque key rather than skip it.
            return hop
        }
        return hops.first ?? peer
    }

    /// The key per-address limits count under: an IPv4 address itself, an IPv6 address's /64 (one subscriber
    /// usually holds a whole /64, so counting single IPv6 addresses would give one client endless addresses).
    /// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack listener reports for an IPv4 client)
    /// counts as the IPv4 address it is, never as a /64 of its own.
    public static func limitKey(_ address: String) -> String {
        guard let bytes = IPNetwork.bytes(of: address), bytes.count == 16 else { return address }
        if bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            return bytes.suffix(4).map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The networks an address lies in, for limits per network rather than one cap for everyone (`ClientNetworks`).
    /// An IPv4-mapped IPv6 address counts as its IPv4 address; anything that is not an address is a network of its own.
    public static func networks(_ address: String) -> ClientNetworks {
        guard var bytes = IPNetwork.bytes(of: address) else { return ClientNetworks(network: address, site: nil) }
        if bytes.count == 16, bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            bytes = Array(bytes.suffix(4))
        }
        guard bytes.count == 16 else {
            return ClientNetworks(network: bytes.prefix(3).map(String.init).joined(separator: ".") + ".0/24", site: nil)
        }
        func prefix(_ length: Int) -> String {
            let kept = Array(bytes.prefix(length / 8)) + Array(repeating: 0, count: 8 - length / 8)
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(kept[$0]) << 8 | UInt16(kept[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/\(length)"
        }
        return ClientNetworks(network: prefix(56), site: prefix(48))
    }

    static func isTrusted(_ address: String, _ proxies: [IPNetwork]) -> Bool {
        proxies.contains { $0.contains(address) }
    }

    /// `for=` values of RFC 7239 `Forwarded` elements, in order: quotes, brackets and ports removed.
    static func forwardedForValues(_ header: String) -> [String] {
        header.split(separator: ",").compactMap { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmed.lowercased() == "for" else { continue }
                return normalized(String(parts[1]))
            }
            return nil
        }
    }

    /// Strips spaces, quotes, IPv6 brackets and a port: `"[2001:db8::1]:4711"` → `2001:db8::1`, `1.2.3.4:80` → `1.2.3.4`.
    static func normalized(_ value: String) -> String {
        var text = value.trimmed
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            return String(text[..<colon])
        }
        return text
    }
}

extension Substring {
    fileprivate var trimmed: String { String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }
}

extension String {
    fileprivate var trimmed: String { Substring(self).trimmed }
}
