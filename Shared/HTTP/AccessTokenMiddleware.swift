import Foundation
import Hummingbird

/// Requires `Authorization: Bearer <access token>` and puts the verified user in the context.
/// Optionally requires roles, so admin routes are closed to users. With `optional`, a request without the
/// header passes as anonymous (routes that personalise when they can), but a bad token is still refused.
public struct AccessTokenMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext
    let verifier: AccessTokenVerifier
    let allowedRoles: Set<UserRole>?
    let optional: Bool

    public init(verifier: AccessTokenVerifier, allowedRoles: Set<UserRole>? = nil, optional: Bool = false) {
        self.verifier = verifier
        self.allowedRoles = allowedRoles
        self.optional = optional
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if optional, request.headers[.authorization] == nil {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthorized
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let user: AuthenticatedUser
        do {
            user = try await verifier.verify(token)
        } catch {
            throw APIError(.unauthorized, code: "invalid_token", message: "the access token is invalid or expired")
        }
        if let allowedRoles, !allowedRoles.contains(user.role) {
            throw APIError.forbidden
        }
        var context = context
        context.user = user
        context.logger[metadataKey: "userId"] = "\(user.id)"
        return try await next(request, context)
    }
}
