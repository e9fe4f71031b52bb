import Foundation

/// An admin approves or rejects an application (B6). Only a pending application is decided, once: the rule judges
/// the application as read, and the store's write decides it only if it is still pending, so of two racing
/// decisions one wins and the other is `alreadyDecided`. Approving makes the profile (approved, its fee unpaid).
package struct DecidePartnerApplication: Sendable {
    package let applications: any PartnerApplications

    package init(applications: any PartnerApplications) {
        self.applications = applications
    }

    package func callAsFunction(_ user: UUID, approve: Bool, reason: String?, by admin: String) async throws -> PartnerApplication {
        guard let current = try await applications.find(user) else { throw PartnerApplicationRefusal.applicationNotFound }
        guard current.status.isUndecided else { throw PartnerApplicationRefusal.alreadyDecided }
        switch try await applications.decide(user, approve: approve, reason: reason, by: admin) {
        case .decided(let decided): return decided
        case .notFound: throw PartnerApplicationRefusal.applicationNotFound
        case .alreadyDecided: throw PartnerApplicationRefusal.alreadyDecided
        }
    }
}
