import Foundation
import PlatformCore

/// Payloads of the `auth.users` topic (key: user id). Consumed by analytics (downloads, active users) and
/// the appointment service (who may book).

/// `user.registered`
public struct UserRegistered: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var kind: AccountKind
    public var role: UserRole
    /// For an install account, its app.
    public var app: InstallApp?

    public init(userId: UUID, kind: AccountKind, role: UserRole, app: InstallApp? = nil) {
        self.userId = userId
        self.kind = kind
        self.role = role
        self.app = app
    }
}

/// `user.logged-in`
public struct UserLoggedIn: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var kind: AccountKind

    public init(userId: UUID, kind: AccountKind) {
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
    public var entitlement: Entitlement
    public var source: EntitlementSource

    public init(userId: UUID, entitlement: Entitlement, source: EntitlementSource) {
        self.userId = userId
        self.entitlement = entitlement
        self.source = source
    }
}

/// `entitlement.revoked`: an admin took a paid feature away. Services refuse new uses of it at once, before
/// the user's access token (which still names it) expires.
public struct EntitlementRevoked: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var entitlement: Entitlement

    public init(userId: UUID, entitlement: Entitlement) {
        self.userId = userId
        self.entitlement = entitlement
    }
}

/// `user.role-changed`: an admin gave an account another role (made it a fortune-teller partner, say).
public struct UserRoleChanged: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var role: UserRole

    public init(userId: UUID, role: UserRole) {
        self.userId = userId
        self.role = role
    }
}

/// `user.email-verified`: the account proved it receives mail at its address (a mailed code). `mailboxKey` names
/// the mailbox without the address (a hash of it with `+tags` and Gmail's dots taken out), so analytics can give
/// one coupon per mailbox without holding anyone's address.
public struct UserEmailVerified: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var kind: AccountKind
    public var mailboxKey: String

    public init(userId: UUID, kind: AccountKind, mailboxKey: String) {
        self.userId = userId
        self.kind = kind
        self.mailboxKey = mailboxKey
    }
}

/// `user.deleted`: the account is gone (its owner or an admin deleted it, or an install nobody used expired). Every
/// service erases or anonymises
/// what it holds of the account and refuses its access tokens from then on (U9; the table in docs/architecture.md).
public struct UserDeleted: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var by: DeletionCause

    public init(userId: UUID, by: DeletionCause) {
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
