import Foundation

/// Files a fortune teller's own application (B6), pending until an admin decides: the terms accepted must be the
/// current version, and an account whose application is pending or approved does not apply again (a rejected one
/// may). The store's write checks the last again, so of two racing applications one is filed. An application is mailed
/// to every admin, so an account not trusted with that yet (`AuthenticatedUser.trusted`: a new install account) may not
/// apply.
package struct ApplyAsPartner: Sendable {
    package let applications: any PartnerApplications
    /// `PARTNER_TERMS_VERSION`.
    package let termsVersion: String

    package init(applications: any PartnerApplications, termsVersion: String) {
        self.applications = applications
        self.termsVersion = termsVersion
    }

    package func callAsFunction(
        _ profile: NewPartner, applicantTrusted: Bool, acceptingTerms accepted: String, now: Date
    ) async throws -> PartnerApplication {
        guard applicantTrusted else { throw PartnerApplicationRefusal.accountNotTrusted }
        guard accepted == termsVersion else { throw PartnerApplicationRefusal.termsNotCurrent(current: termsVersion) }
        if let earlier = try await applications.find(profile.id), !earlier.status.allowsApplyingAgain {
            throw PartnerApplicationRefusal.applicationExists
        }
        let application = PartnerApplication(
            userId: profile.id, name: profile.name, description: profile.description, contact: profile.contact, photoURL: profile.photoURL,
            languages: profile.languages, timeZone: profile.timeZone, termsVersion: accepted, termsAcceptedAt: now, status: .pending,
            reason: nil, appliedAt: now, decidedAt: nil)
        switch try await applications.apply(application) {
        case .applied(let filed): return filed
        case .exists: throw PartnerApplicationRefusal.applicationExists
        }
    }
}
