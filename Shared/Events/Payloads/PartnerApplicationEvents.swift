import Foundation

/// `partner.applied`: an account applied to become a fortune teller, accepting the terms of `termsVersion` (B6);
/// auth mails its admins.
public struct PartnerApplied: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID
    public var name: String
    public var termsVersion: String

    public init(userId: UUID, name: String, termsVersion: String) {
        self.userId = userId
        self.name = name
        self.termsVersion = termsVersion
    }
}

/// `partner.approved`: an admin approved the application (B6); auth makes the account a partner (a user only: an
/// admin stays one), which its `user.role-changed` tells every service.
public struct PartnerApproved: Codable, Sendable, Equatable {
    @LowercaseUUID public var userId: UUID

    public init(userId: UUID) {
        self.userId = userId
    }
}
