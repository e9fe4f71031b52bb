import Foundation
import PlatformCore

/// How an account logs in.
enum AccountKind: String, Codable, Sendable, CaseIterable {
    /// Admin dashboard: email + password (U1–U3).
    case dashboard
    /// Hotel survey: email + 4-character PIN (U4).
    case survey
    /// An OpenID Connect identity (U5), whichever app's client signed it in. (A horoscope guest is an `install`.)
    case horoscope
    /// An app install's own account, made without a form (issue 29); kept across launches by its refresh token.
    case install
}

/// The apps whose installs get accounts of their own.
enum InstallApp: String, Sendable, CaseIterable {
    case weather, places, horoscope
}

/// An account as the service reads it. Hashes never leave the repository except to the hasher.
struct Account: Sendable, Equatable {
    var id: UUID
    var email: String?
    var kind: AccountKind
    var role: UserRole
    var displayName: String?
    var entitlements: Set<String>
    var banned: Bool
    var createdAt: Date
    /// When the install proved itself a real app on a real device (`InstallAttestation`); nil for every other account.
    var attestedAt: Date? = nil
    /// When a survey account's owner confirmed its address with the mailed code (N4); nil until then.
    var emailVerifiedAt: Date? = nil
}
