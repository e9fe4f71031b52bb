import Foundation

/// A fortune teller's own application (B6): the profile they would be listed with, the version of the terms they
/// accepted and when, and an admin's decision.
package struct PartnerApplication: Sendable, Equatable {
    package enum Status: String, Sendable {
        case pending, approved, rejected
    }

    package var userId: UUID
    package var name: String
    package var description: String
    package var contact: String
    package var photoURL: String?
    package var languages: [String]
    package var timeZone: String
    package var termsVersion: String
    package var termsAcceptedAt: Date
    package var status: Status
    package var reason: String?
    package var appliedAt: Date
    package var decidedAt: Date?

    package init(
        userId: UUID, name: String, description: String, contact: String, photoURL: String? = nil, languages: [String], timeZone: String,
        termsVersion: String, termsAcceptedAt: Date, status: Status, reason: String? = nil, appliedAt: Date, decidedAt: Date? = nil
    ) {
        self.userId = userId
        self.name = name
        self.description = description
        self.contact = contact
        self.photoURL = photoURL
        self.languages = languages
        self.timeZone = timeZone
        self.termsVersion = termsVersion
        self.termsAcceptedAt = termsAcceptedAt
        self.status = status
        self.reason = reason
        self.appliedAt = appliedAt
        self.decidedAt = decidedAt
    }
}

extension PartnerApplication.Status {
    /// A rejected applicant may apply again; a pending or approved application stands.
    package var allowsApplyingAgain: Bool { self == .rejected }

    /// Only a pending application is approved or rejected; a decision is final.
    package var isUndecided: Bool { self == .pending }
}
