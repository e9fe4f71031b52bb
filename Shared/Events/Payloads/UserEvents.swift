import Foundation

/// Payloads of the `auth.users` topic (key: user id). Consumed by analytics (downloads, active users) and
/// the appointment service (who may book).

/// `user.registered`
public struct UserRegistered: Codable, Sendable, Equatable {
    public var userId: UUID
    /// `dashboard`, `survey` or `horoscope`.
    public var kind: String
    public var role: String

    public init(userId: UUID, kind: String, role: String) {
        self.userId = userId
        self.kind = kind
        self.role = role
    }
}

/// `user.logged-in`
public struct UserLoggedIn: Codable, Sendable, Equatable {
    public var userId: UUID
    public var kind: String

    public init(userId: UUID, kind: String) {
        self.userId = userId
        self.kind = kind
    }
}

/// `user.banned` (also sent when a ban is lifted, with `banned: false`)
public struct UserBanned: Codable, Sendable, Equatable {
    public var userId: UUID
    public var banned: Bool

    public init(userId: UUID, banned: Bool) {
        self.userId = userId
        self.banned = banned
    }
}

/// `entitlement.granted`
public struct EntitlementGranted: Codable, Sendable, Equatable {
    public var userId: UUID
    public var entitlement: String
    /// `admin` or `payment`.
    public var source: String

    public init(userId: UUID, entitlement: String, source: String) {
        self.userId = userId
        self.entitlement = entitlement
        self.source = source
    }
}
