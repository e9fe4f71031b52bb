/// The networks a client address lies in, as per-network limits count them: `network` is an IPv4 address's /24
/// (what one provider's customers or one office share) or an IPv6 address's /56 (what an ISP delegates to one
/// subscriber, so stepping through its own /64s gains nothing); `site` is an IPv6 address's /48 (what one site
/// holds, 256 such /56s), nil for IPv4.
public struct ClientNetworks: Sendable, Equatable {
    public let network: String
    public let site: String?

    public init(network: String, site: String?) {
        self.network = network
        self.site = site
    }
}
