/// Who made a request, as proven by a verified access token.
public struct AuthenticatedUser: Sendable, Equatable {
    public let id: String
    public let role: UserRole
    public let entitlements: Set<String>

    public init(id: String, role: UserRole, entitlements: Set<String>) {
        self.id = id
        self.role = role
        self.entitlements = entitlements
    }

    public func has(entitlement: String) -> Bool { entitlements.contains(entitlement) }
}
