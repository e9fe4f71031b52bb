import Foundation

/// Who made a request, as proven by a verified access token.
public struct AuthenticatedUser: Sendable, Equatable {
    public let id: String
    public let role: UserRole
    public let entitlements: Set<String>
    /// When the token that proved this caller expires: work that outlives a request (a live stream) ends then.
    public let expiresAt: Date?

    public init(id: String, role: UserRole, entitlements: Set<String>, expiresAt: Date? = nil) {
        self.id = id
        self.role = role
        self.entitlements = entitlements
        self.expiresAt = expiresAt
    }

    public func has(entitlement: String) -> Bool { entitlements.contains(entitlement) }
}
