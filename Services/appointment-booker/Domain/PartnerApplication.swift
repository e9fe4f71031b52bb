import Foundation

/// A fortune teller's own application (B6): the profile they would be listed with, the version of the terms they
/// accepted and when, and an admin's decision.
struct PartnerApplication: Sendable, Equatable {
    enum Status: String, Sendable {
        case pending, approved, rejected
    }

    var userId: UUID
    var name: String
    var description: String
    var contact: String
    var photoURL: String?
    var languages: [String]
    var timeZone: String
    var termsVersion: String
    var termsAcceptedAt: Date
    var status: Status
    var reason: String?
    var appliedAt: Date
    var decidedAt: Date?
}

extension PartnerApplication.Status {
    /// A rejected applicant may apply again; a pending or approved application stands.
    var allowsApplyingAgain: Bool { self == .rejected }

    /// Only a pending application is approved or rejected; a decision is final.
    var isUndecided: Bool { self == .pending }
}
