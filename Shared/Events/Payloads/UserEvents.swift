import Foundation

/// Payloads of the `auth.users` topic (key: user id). Consumed by analytics (downloads, active users) and
/// the appointment service (who may book).

/// `user.registered`
public struct UserRegistered: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    /// `dashboard`, `survey`, `horoscope` or `install`.
    public var kind: String
    public var role: String
    /// For an install account: `weather`, `places` or `horoscope`.
    public var app: String?

    public init(userId: UUID, kind: String, role: String, app: String? = nil) {
        self.userId = userId
        self.kind = kind
        self.role = role
        self.app = app
    }
}

/// `user.logged-in`
public struct UserLoggedIn: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var kind: String

    public init(userId: UUID, kind: String) {
        self.userId = userId
        self.kind = kind
    }
}

/// `user.banned` (also sent when a ban is lifted, with `banned: false`)
public struct UserBanned: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var banned: Bool

    public init(userId: UUID, banned: Bool) {
        self.userId = userId
        self.banned = banned
    }
}

/// `entitlement.granted`
public struct EntitlementGranted: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var entitlement: String
    /// `admin`, `payment`, or `merge` (an install account's paid feature carried into the account it merged into).
    public var source: String

    public init(userId: UUID, entitlement: String, source: String) {
        self.userId = userId
        self.entitlement = entitlement
        self.source = source
    }
}

/// `entitlement.revoked`: an admin took a paid feature away. Services refuse new uses of it at once, before
/// the user's access token (which still names it) expires.
public struct EntitlementRevoked: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var entitlement: String

    public init(userId: UUID, entitlement: String) {
        self.userId = userId
        self.entitlement = entitlement
    }
}

/// `user.role-changed`: an admin gave an account another role (made it a fortune-teller partner, say).
public struct UserRoleChanged: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    /// `user`, `partner` or `admin`.
    public var role: String

    public init(userId: UUID, role: String) {
        self.userId = userId
        self.role = role
    }
}

/// `user.email-verified`: the account proved it receives mail at its address (a mailed code). `mailboxKey` names
/// the mailbox without the address (a hash of it with `+tags` and Gmail's dots taken out), so analytics can give
/// one coupon per mailbox without holding anyone's address.
public struct UserEmailVerified: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var kind: String
    public var mailboxKey: String

    public init(userId: UUID, kind: String, mailboxKey: String) {
        self.userId = userId
        self.kind = kind
        self.mailboxKey = mailboxKey
    }
}

/// `user.deleted`: the account is gone (its owner or an admin deleted it, or an install nobody used expired). Every
/// service erases or anonymises
/// what it holds of the account and refuses its access tokens from then on (issue 29; the table in docs/architecture.md).
public struct UserDeleted: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    /// `self` (the owner), `admin`, or `expiry` (an install account that did nothing, `INSTALL_IDLE_DAYS`).
    public var by: String

    public init(userId: UUID, by: String) {
        self.userId = userId
        self.by = by
    }
}

/// `user.merged`: an install account was linked to a lasting one (OpenID Connect, survey, dashboard) and merged
/// into it. Every service gives `intoUserId` what `fromUserId` had and then treats `fromUserId` as erased.
public struct UserMerged: Codable, Sendable, Equatable {
    @LowercaseUUID public var fromUserId: UUID
    @LowercaseUUID public var intoUserId: UUID

    public init(fromUserId: UUID, intoUserId: UUID) {
        self.fromUserId = fromUserId
        self.intoUserId = intoUserId
    }
}
