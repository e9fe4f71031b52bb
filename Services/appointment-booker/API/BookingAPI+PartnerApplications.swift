import Foundation
import PlatformCore
import PlatformHTTP

/// Fortune tellers apply themselves (B6): the profile and the accepted terms' version; admins list the pending
/// ones (and are mailed by auth) and decide.
extension BookingAPI {
    func getPartnerTerms(_ input: Operations.GetPartnerTerms.Input) async throws -> Operations.GetPartnerTerms.Output {
        .ok(.init(body: .json(.init(version: configuration.partnerTermsVersion, url: configuration.partnerTermsURL))))
    }

    func applyAsPartner(_ input: Operations.ApplyAsPartner.Input) async throws -> Operations.ApplyAsPartner.Output {
        let user = try RequestScope.requireUser()
        guard let id = UUID(uuidString: user.id) else { throw APIError.forbidden }
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let profile = try ProfileInput.check(
            name: body.name, description: body.description, contact: body.contact, photoURL: body.photoUrl,
            languages: body.languages.map(\.rawValue), timeZone: body.timeZone)
        let apply = ApplyAsPartner(applications: applications, termsVersion: configuration.partnerTermsVersion)
        let applied = try await apply(
            NewPartner(
                id: id, name: profile.name ?? body.name, description: profile.description ?? "", contact: profile.contact ?? body.contact,
                photoURL: profile.photoURL, languages: profile.languages ?? [], timeZone: body.timeZone),
            applicantTrusted: user.trusted, acceptingTerms: body.termsVersion, now: Date())
        return .created(.init(body: .json(.init(applied))))
    }

    func getMyPartnerApplication(_ input: Operations.GetMyPartnerApplication.Input) async throws -> Operations.GetMyPartnerApplication.Output {
        let user = try RequestScope.requireUser()
        guard let id = UUID(uuidString: user.id), let application = try await applications.find(id) else { throw BookingErrors.applicationNotFound }
        return .ok(.init(body: .json(.init(application))))
    }

    func listPartnerApplications(_ input: Operations.ListPartnerApplications.Input) async throws -> Operations.ListPartnerApplications.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let status = input.query.status.flatMap { PartnerApplication.Status(rawValue: $0.rawValue) }
        let found = try await applications.list(status: status, limit: paging.size + 1, offset: paging.offset)
        return .ok(
            .init(
                body: .json(
                    .init(
                        applications: found.prefix(paging.size).map(Components.Schemas.PartnerApplication.init), page: paging.page,
                        pageSize: paging.size, hasMore: found.count > paging.size))))
    }

    func decidePartnerApplication(_ input: Operations.DecidePartnerApplication.Input) async throws -> Operations.DecidePartnerApplication.Output {
        let admin = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.accountId, field: "accountId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let reason = body.reason.map(RequestText.withoutNUL)
        if let reason, RequestText.length(reason) > 500 { throw JSONBody.schemaViolation(["reason": "must be at most 500 characters"]) }
        let decided = try await DecidePartnerApplication(applications: applications)(id, approve: body.approve, reason: reason, by: admin.id)
        slotListings.invalidate(partner: id)
        return .ok(.init(body: .json(.init(decided))))
    }
}

extension Components.Schemas.PartnerApplication {
    init(_ application: PartnerApplication) {
        self.init(
            accountId: AccountKey.of(application.userId), name: application.name, description: application.description,
            contact: application.contact, photoUrl: application.photoURL,
            languages: application.languages.compactMap(Components.Schemas.Language.init(rawValue:)), timeZone: application.timeZone,
            termsVersion: application.termsVersion, termsAcceptedAt: application.termsAcceptedAt,
            status: StatusPayload(rawValue: application.status.rawValue) ?? .pending, reason: application.reason,
            appliedAt: application.appliedAt, decidedAt: application.decidedAt)
    }
}
