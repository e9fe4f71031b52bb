import Foundation

/// What applying as a partner and deciding applications needs from storage: `PartnerApplicationStore` in Postgres,
/// a memory one in the unit tests.
package protocol PartnerApplications: Sendable {
    func find(_ user: UUID) async throws -> PartnerApplication?

    /// Files the application and publishes `partner.applied`; `.exists` unless the account has none or a rejected
    /// one, checked again in the write (two racing applications: one is filed).
    func apply(_ application: PartnerApplication) async throws -> ApplicationFiling

    /// Decides a pending application (the write checks it still is); approving makes the profile (approved, its fee
    /// unpaid) and publishes `partner.approved`, in the same transaction.
    func decide(_ user: UUID, approve: Bool, reason: String?, by admin: String) async throws -> ApplicationDecision
}

package enum ApplicationFiling: Equatable, Sendable {
    case applied(PartnerApplication)
    /// A pending or approved application is there already (a rejected one may apply again).
    case exists
}

package enum ApplicationDecision: Equatable, Sendable {
    case decided(PartnerApplication)
    case notFound
    /// Only a pending application is decided.
    case alreadyDecided
}
