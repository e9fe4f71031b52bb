import Foundation
import Hummingbird
import Shared

/// Admin-only account management (U5, U6): search, edit, ban, grant entitlements, payment status.
struct AdminRoutes {
    let admin: AdminStore

    struct UpdateRequest: Decodable {
        var displayName: String?
        var role: UserRole?
        var banned: Bool?
    }

    struct GrantRequest: Decodable {
        var entitlement: String
    }

    struct AccountList: ResponseEncodable {
        var accounts: [AccountView]
        var limit: Int
        var offset: Int
    }

    struct PaymentList: ResponseEncodable {
        var payments: [AdminStore.Payment]
        var paidEntitlements: [String]
    }

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let group = router.group("v1/admin/users").add(middleware: AccessTokenMiddleware(verifier: verifier, allowedRoles: [.admin]))
        group.get(use: list)
        group.patch(":id", use: update)
        group.post(":id/entitlements", use: grant)
        group.get(":id/payments", use: payments)
    }

    @Sendable func list(_ request: Request, context: PlatformRequestContext) async throws -> AccountList {
        let query = request.uri.queryParameters
        let limit = try Self.integer(query["limit"], name: "limit", default: 50, range: 1...100)
        let offset = try Self.integer(query["offset"], name: "offset", default: 0, range: 0...1_000_000)
        let prefix = query["query"].map(String.init)
        guard (prefix?.count ?? 0) <= 100 else { throw APIError.badRequest("invalid_query", "query is at most 100 characters") }
        return AccountList(accounts: try await admin.search(prefix: prefix, limit: limit, offset: offset), limit: limit, offset: offset)
    }

    @Sendable func update(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        let id = try Self.accountId(context)
        let body = try await request.decode(as: UpdateRequest.self, context: context)
        if let name = body.displayName, name.count > 100 {
            throw APIError.badRequest("invalid_display_name", "displayName is at most 100 characters")
        }
        guard try await admin.update(id: id, displayName: body.displayName, role: body.role, banned: body.banned) else {
            throw APIError.notFound("no such account")
        }
        return MessageResponse(message: "account updated")
    }

    @Sendable func grant(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        let id = try Self.accountId(context)
        let body = try await request.decode(as: GrantRequest.self, context: context)
        guard let entitlement = Entitlement(rawValue: body.entitlement) else {
            throw APIError.badRequest(
                "unknown_entitlement", "entitlement must be one of \(Entitlement.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard try await admin.grant(entitlement, to: id) else { throw APIError.notFound("no such account") }
        return MessageResponse(message: "entitlement granted")
    }

    @Sendable func payments(_ request: Request, context: PlatformRequestContext) async throws -> PaymentList {
        let payments = try await admin.payments(of: try Self.accountId(context))
        let paid = Set(payments.filter { $0.status == "paid" }.map(\.entitlement))
            .subtracting(payments.filter { $0.status == "refunded" }.map(\.entitlement))
        return PaymentList(payments: payments, paidEntitlements: paid.sorted())
    }

    static func accountId(_ context: PlatformRequestContext) throws -> UUID {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.badRequest("invalid_id", "the account id must be a UUID")
        }
        return id
    }

    static func integer(_ value: Substring?, name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let value else { return fallback }
        guard let number = Int(value), range.contains(number) else {
            throw APIError.badRequest("invalid_\(name)", "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }
}
