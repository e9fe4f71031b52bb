import Foundation
import Hummingbird
import PlatformCore

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
        guard let header = request.headers[.authorization], let token = Self.bearerToken(in: header) else {
            throw APIError.unauthorized
        }
        let user: AuthenticatedUser
        do {
            user = try await verifier.verify(token)
        } catch .accountErased {
            throw APIError(.unauthorized, code: "invalid_token", message: "the account of this access token has been deleted")
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

    /// The token of `Bearer <token>` (scheme in any case, blanks around the token ignored), nil for another
    /// scheme or an empty token. Done on the UTF-8 bytes: Foundation's trimming bridged through NSString and
    /// cost more than the rest of a cached token check.
    public static func bearerToken(in header: String) -> String? {
        let bytes = header.utf8
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ header, expected in header | 0x20 == expected })
        else { return nil }
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let token = bytes.dropFirst(scheme.count).drop(while: isBlank)
        guard let last = token.lastIndex(where: { !isBlank($0) }) else { return nil }
        return String(Substring(token[...last]))
    }
}
