import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Admin-only account management (U5, U6): search, edit, ban, grant entitlements, payment status. The admin
/// role is checked by the middleware for every `/v1/admin` path before the request is read.
extension AuthAPI {
    func searchAccounts(_ input: Operations.SearchAccounts.Input) async throws -> Operations.SearchAccounts.Output {
        _ = try RequestScope.requireRole([.admin])
        let limit = input.query.limit ?? 50, offset = input.query.offset ?? 0
        var outside: [String: String] = [:]
        if !(1...100).contains(limit) { outside["limit"] = "must be an integer in 1...100" }
        if !(0...1_000_000).contains(offset) { outside["offset"] = "must be an integer in 0...1000000" }
        if let query = input.query.query, RequestText.length(query) > 100 { outside["query"] = "is at most 100 characters" }
        guard outside.isEmpty else { throw JSONBody.schemaViolation(outside) }
        // NUL cannot be stored or compared by Postgres text; no account name holds one.
        let accounts = try await admin.search(prefix: input.query.query.map(RequestText.withoutNUL), limit: limit, offset: offset)
        return .ok(.init(body: .json(.init(accounts: accounts.map(Components.Schemas.Account.init), limit: limit, offset: offset))))
    }

    /// Invites a fortune teller (or another admin or user): a dashboard account with the role and no
    /// password, `user.registered` published and a choose-your-password link mailed, all in one transaction.
    func inviteAccount(_ input: Operations.InviteAccount.Input) async throws -> Operations.InviteAccount.Output {
        _ = try RequestScope.requireRole([.admin])
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        if RequestText.length(body.email) > 254 { throw JSONBody.schemaViolation(["email": "is at most 254 characters"]) }
        let role: UserRole =
            switch body.role {
            case .user: .user
            case .partner: .partner
            case .admin: .admin
            }
        let invited = try await InviteAccount(invitations: auth.invitations).run(email: RequestText.trimmed(body.email), role: role)
        return .created(.init(body: .json(.init(accountId: AccountKey.of(invited.id)))))
    }

    func updateAccount(_ input: Operations.UpdateAccount.Input) async throws -> Operations.UpdateAccount.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.accountId(input.path.accountId)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        if let name = body.displayName, RequestText.length(name) > 100 {
            throw JSONBody.schemaViolation(["displayName": "is at most 100 characters"])
        }
        let change = AccountChange(displayName: body.displayName.map(RequestText.withoutNUL), role: body.role?.domain, banned: body.banned)
        try await UpdateAccount(accounts: admin).run(id: id, change: change)
        return .ok(.message("account updated"))
    }

    func grantEntitlement(_ input: Operations.GrantEntitlement.Input) async throws -> Operations.GrantEntitlement.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.accountId(input.path.accountId)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        try await GrantEntitlement(accounts: admin).run(body.entitlement.domain, to: id)
        return .ok(.message("entitlement granted"))
    }

    func revokeEntitlement(_ input: Operations.RevokeEntitlement.Input) async throws -> Operations.RevokeEntitlement.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.accountId(input.path.accountId)
        try await RevokeEntitlement(accounts: admin).run(input.path.entitlement.domain, from: id)
        return .ok(.message("entitlement revoked"))
    }

    func listPayments(_ input: Operations.ListPayments.Input) async throws -> Operations.ListPayments.Output {
        _ = try RequestScope.requireRole([.admin])
        let history = try await admin.payments(of: try Self.accountId(input.path.accountId))
        return .ok(
            .init(
                body: .json(
                    .init(
                        payments: history.payments.map(Components.Schemas.Payment.init),
                        paidEntitlements: history.paidEntitlements.map(Components.Schemas.Entitlement.init)))))
    }

    static func accountId(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw JSONBody.schemaViolation(["accountId": "must be a UUID"]) }
        return id
    }
}

extension Components.Schemas.Payment {
    init(_ payment: Payment) {
        let status: StatusPayload =
            switch payment.status {
            case .paid: .paid
            case .refunded: .refunded
            }
        self.init(
            paymentId: payment.paymentId, entitlement: .init(payment.entitlement), status: status, amountCents: payment.amountCents,
            receivedAt: payment.receivedAt)
    }
}
