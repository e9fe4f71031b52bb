import Foundation

/// What an app keeps of its session between launches: the access token, the refresh token that renews it (each
/// works once), when the access token stops working, and whose account it is.
public struct SessionTokens: Codable, Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresAt: Date
    public var accountId: String

    public init(accessToken: String, refreshToken: String, expiresAt: Date, accountId: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.accountId = accountId
    }
}
