import Foundation

/// Who made a request, as proven by a verified access token.
public struct AuthenticatedUser: Sendable, Equatable {
    public let id: String
    public let role: UserRole
    public let entitlements: Set<String>
    /// When the token that proved this caller expires: work that outlives a request (a live stream) ends then.
    public let expiresAt: Date?
    /// Whether the account may do what costs others (a rating in everyone's averages, an application mailed to every
    /// admin): auth's `trusted` claim, false for an install account that is new, not attested and not vouched for. A
    /// token without the claim was signed by an auth from before it and is trusted, as every account was then: such a
    /// token lives at most `AccessTokenLifetime.maximum`, while reading it as untrusted would refuse every member for as
    /// long as the services run ahead of auth.
    public let trusted: Bool

    public init(id: String, role: UserRole, entitlements: Set<String>, expiresAt: Date? = nil, trusted: Bool = true) {
        self.id = id
        self.role = role
        self.entitlements = entitlements
        self.expiresAt = expiresAt
        self.trusted = trusted
    }

    public func has(entitlement: String) -> Bool { entitlements.contains(entitlement) }
}
