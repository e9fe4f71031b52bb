import PlatformCore

/// How far a bad reading goes to find places to pray (B4). Asking places-importer for a cell spends an hourly
/// budget shared by everyone (`WORSHIP_REQUESTS_PER_HOUR`) and makes it import tiles from its providers, so only a
/// trusted member (an account, not a guest session, and not an install account made minutes ago: auth's `trusted`
/// claim) may cause a request; any other reading is told what is known. Install accounts are cheap to make, so without
/// the trust a few addresses could still spend the hour's budget for everyone.
enum PlacesSearch: Sendable, Equatable {
    /// A cell nobody asked about (or whose answer is stale) is asked for, within the hour's budget.
    case askingWhenUnknown
    /// What is known of the cell, without writing anything.
    case knownOnly

    /// The search a reading asked by `caller` (nil: anonymous) may make.
    init(for caller: AuthenticatedUser?) {
        self = caller.map { $0.role != .guest && $0.trusted } == true ? .askingWhenUnknown : .knownOnly
    }
}
