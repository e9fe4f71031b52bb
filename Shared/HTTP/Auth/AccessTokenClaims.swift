import Foundation
import JWTKit
import PlatformCore

/// The claims of an access token issued by the auth service. Every service verifies them with the public key only.
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// The user id.
    public var sub: SubjectClaim
    public var exp: ExpirationClaim
    public var iat: IssuedAtClaim
    public var iss: IssuerClaim
    /// `user`, `partner` or `admin`.
    public var role: UserRole
    /// Paid features the user may use (U6).
    public var entitlements: [String]
    /// Whether the account may do what costs others (`AuthenticatedUser.trusted`): false only for an install account
    /// that is new, not attested and not vouched for. Optional when decoding: a token signed before auth wrote it has
    /// none, which counts as trusted (see `AuthenticatedUser.trusted`).
    public var trusted: Bool?

    public init(
        userId: String, role: UserRole, entitlements: [String], trusted: Bool? = nil, issuer: String, issuedAt: Date, expiresAt: Date
    ) {
        sub = SubjectClaim(value: userId)
        exp = ExpirationClaim(value: expiresAt)
        iat = IssuedAtClaim(value: issuedAt)
        iss = IssuerClaim(value: issuer)
        self.role = role
        self.entitlements = entitlements
        self.trusted = trusted
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
