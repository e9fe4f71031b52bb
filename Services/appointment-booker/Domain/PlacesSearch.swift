import PlatformCore

/// How far a bad reading goes to find places to pray (B4). Asking places-importer for a cell spends an hourly
/// budget shared by everyone (`WORSHIP_REQUESTS_PER_HOUR`), of which one network may use only a part
/// (`WORSHIP_REQUESTS_PER_NETWORK_PER_HOUR`), and makes it import tiles from its providers, so only a
/// trusted member (an account, not a guest session, and not an install account made minutes ago: auth's `trusted`
/// claim) may cause a request; any other reading is told what is known. Install accounts are cheap to make, so without
/// the trust a few addresses could still spend the hour's budget for everyone.
package enum PlacesSearch: Sendable, Equatable {
    /// A cell nobody asked about (or whose answer is stale) is asked for, within the hour's budget and the asker's
    /// network's share of it (`ClientNetworks.network`: a /24 or a /56).
    case askingWhenUnknown(network: String)
    /// What is known of the cell, without writing anything.
    case knownOnly

    /// The search a reading asked by `caller` (nil: anonymous) from `network` may make.
    package init(for caller: AuthenticatedUser?, network: String) {
        self = caller.map { $0.role != .guest && $0.trusted } == true ? .askingWhenUnknown(network: network) : .knownOnly
    }
}
