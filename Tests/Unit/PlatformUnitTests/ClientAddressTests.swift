import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

@Suite("Client address behind trusted proxies")
struct ClientAddressTests {
    @Test("X1: networks parse as address/prefix, IPv4 and IPv6; anything else is refused")
    func networksX1() throws {
        let ten = try #require(IPNetwork("10.0.0.0/8"))
        #expect(ten.contains("10.200.3.4") && !ten.contains("11.0.0.1") && ten.contains("::ffff:10.1.2.3"))
        let host = try #require(IPNetwork("192.0.2.7"))
        #expect(host.contains("192.0.2.7") && !host.contains("192.0.2.8"))
        let odd = try #require(IPNetwork("172.16.0.0/12"))
        #expect(odd.contains("172.31.255.255") && !odd.contains("172.32.0.0"))
        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains("2001:db8:1::5") && !v6.contains("2001:db9::1") && !v6.contains("10.0.0.1"))
        #expect(try #require(IPNetwork("0.0.0.0/0")).contains("8.8.8.8"))
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "::1/129", "example.com", "10.0.0.0/x", "1.2.3.4/8/1"] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
        #expect(!ten.contains("not an address") && !ten.contains(String(repeating: "1", count: 5_000)))
    }

    @Test("X1: the forwarded address counts only from a trusted peer, read right to left past trusted hops")
    func resolveX1() throws {
        let proxies = [try #require(IPNetwork("10.0.0.0/8")), try #require(IPNetwork("::1"))]
        func resolve(_ peer: String, xff: [String] = [], forwarded: [String] = []) -> String {
            forwarded.isEmpty
                ? ClientAddress.resolve(peer: peer, header: .xForwardedFor, values: xff, trustedProxies: proxies)
                : ClientAddress.resolve(peer: peer, header: .forwarded, values: forwarded, trustedProxies: proxies)
        }
        #expect(resolve("203.0.113.9", xff: ["1.2.3.4"]) == "203.0.113.9", "an untrusted peer's header is ignored")
        #expect(resolve("10.0.0.2", xff: ["1.2.3.4"]) == "1.2.3.4")
        #expect(resolve("10.0.0.2", xff: ["6.6.6.6, 1.2.3.4, 10.0.0.9"]) == "1.2.3.4", "a client-written first hop is not believed")
        #expect(resolve("10.0.0.2", xff: ["6.6.6.6", "1.2.3.4"]) == "1.2.3.4", "several header lines are one list")
        #expect(resolve("10.0.0.2", xff: ["10.0.0.7, 10.0.0.8"]) == "10.0.0.7", "all hops trusted: the first")
        #expect(resolve("10.0.0.2") == "10.0.0.2", "no header: the peer")
        #expect(resolve("::1", forwarded: [#"for=192.0.2.60;proto=http;by=203.0.113.43"#]) == "192.0.2.60")
        #expect(resolve("::1", forwarded: [#"for="[2001:db8:cafe::17]:4711""#]) == "2001:db8:cafe::17")
        #expect(resolve("10.0.0.2", xff: ["1.2.3.4:5555"]) == "1.2.3.4")
        #expect(resolve("10.0.0.2", xff: ["garbage"]) == "garbage", "a hop that is no address is kept as the key, not skipped")
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", header: .forwarded, values: [], trustedProxies: proxies) == "10.0.0.2",
            "only the configured header is read: an X-Forwarded-For the client wrote is not consulted")
    }

    @Test("X1: per-address limits count an IPv6 client by its /64, an IPv4 client by its address")
    func limitKeys() {
        #expect(ClientAddress.limitKey("2001:db8:1:2:aaaa::1") == ClientAddress.limitKey("2001:db8:1:2:bbbb::9"))
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("2001:db8:1:3::1") != ClientAddress.limitKey("2001:db8:1:2::1"))
        #expect(ClientAddress.limitKey("192.0.2.7") == "192.0.2.7" && ClientAddress.limitKey("unknown") == "unknown")
        // X3: an IPv4 client seen through a dual-stack listener counts as its IPv4 address, not as a /64.
        #expect(ClientAddress.limitKey("::ffff:192.0.2.7") == "192.0.2.7")
    }

    @Test("U5, X1: per-network limits count an IPv4 client by its /24, an IPv6 client by its /56 and its /48")
    func networks() {
        #expect(ClientAddress.networks("192.0.2.7") == ClientNetworks(network: "192.0.2.0/24", site: nil))
        #expect(ClientAddress.networks("192.0.2.250") == ClientAddress.networks("192.0.2.7"))
        #expect(ClientAddress.networks("192.0.3.7") != ClientAddress.networks("192.0.2.7"))
        #expect(ClientAddress.networks("::ffff:192.0.2.7").network == "192.0.2.0/24", "a mapped address is its IPv4 network")
        #expect(ClientAddress.networks("2001:db8:1:2ff::1") == ClientNetworks(network: "2001:db8:1:200::/56", site: "2001:db8:1:0::/48"))
        #expect(ClientAddress.networks("2001:db8:1:2aa:5::9") == ClientAddress.networks("2001:db8:1:2ff::1"), "one /56")
        #expect(ClientAddress.networks("2001:db8:1:3ff::1").site == "2001:db8:1:0::/48", "another /56 of the same /48")
        #expect(ClientAddress.networks("2001:db8:1:3ff::1").network != ClientAddress.networks("2001:db8:1:2ff::1").network)
        #expect(ClientAddress.networks("unknown") == ClientNetworks(network: "unknown", site: nil))
    }

    @Test("X1: TRUSTED_PROXIES is read as a list of networks; a bad entry refuses start-up naming the variable")
    func configuration() throws {
        let base = ["AUTH_PUBLIC_KEY": "x"]
        let configured = try PlatformConfiguration(
            identity: .auth, environment: EnvironmentReader(base.merging(["TRUSTED_PROXIES": "10.0.0.0/8, ::1"]) { $1 }))
        #expect(configured.trustedProxies.map(\.description) == ["10.0.0.0/8", "::1"])
        #expect(try PlatformConfiguration(identity: .auth, environment: EnvironmentReader(base)).trustedProxies.isEmpty)
        #expect {
            try PlatformConfiguration(identity: .auth, environment: EnvironmentReader(base.merging(["TRUSTED_PROXIES": "10.0.0.0/8, proxy"]) { $1 }))
        } throws: { "\($0)".contains("TRUSTED_PROXIES") }
    }
}
