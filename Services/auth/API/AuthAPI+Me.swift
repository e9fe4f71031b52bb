import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// The signed-in user's own account (U9): the profile the apps show and edit, and their payment history.
extension AuthAPI {
    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        .ok(.init(body: .json(try await profile(of: try callerId()))))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        let id = try callerId()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let change = ProfileChange(
            displayName: body.displayName.map(RequestText.trimmed).map(RequestText.withoutNUL), language: body.language?.rawValue,
            timeZone: body.timeZone.map(RequestText.withoutNUL), zodiacSign: body.zodiacSign?.rawValue)
        if let name = change.displayName, RequestText.length(name) > 100 {
            throw JSONBody.schemaViolation(["displayName": "is at most 100 characters"])
        }
        try await UpdateProfile(profiles: auth.accounts).run(of: id, change: change)
        return .ok(.init(body: .json(try await profile(of: id))))
    }

    func listMyPayments(_ input: Operations.ListMyPayments.Input) async throws -> Operations.ListMyPayments.Output {
        let history = try await admin.payments(of: try callerId())
        return .ok(
            .init(
                body: .json(
                    .init(
                        payments: history.payments.map(Components.Schemas.Payment.init),
                        paidEntitlements: history.paidEntitlements.map(Components.Schemas.Entitlement.init)))))
    }

    func callerId() throws -> UUID {
        guard let id = UUID(uuidString: try RequestScope.requireUser().id) else { throw Self.noAccount }
        return id
    }

    func profile(of id: UUID) async throws -> Components.Schemas.Profile {
        guard let account = try await auth.accounts.credentials(id: id)?.account, let profile = try await auth.accounts.profile(of: id)
        else { throw Self.noAccount }
        return .init(
            account: .init(account), language: profile.language.flatMap(Components.Schemas.Profile.LanguagePayload.init(rawValue:)),
            timeZone: profile.timeZone, zodiacSign: profile.zodiacSign.flatMap(Components.Schemas.ZodiacSign.init(rawValue:)))
    }

    static let noAccount = APIError(.notFound, code: "account_not_found", message: "this account no longer exists")
}
