import Hummingbird
import PlatformCore

/// Applies the matched operation's `x-access` (X3) before the generated layer reads the request, so a request
/// without a token to a signed-in operation is answered 401 rather than 400 for its body. Behind
/// `AccessTokenMiddleware`, which puts the caller in the context; in a route group, so the router has matched the
/// operation and `endpointPath` is its template. What a use case decides (a partner's own profile, a trusted
/// account) stays with the use case.
public struct OperationAccessMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    let access: OperationAccess

    public init(_ access: OperationAccess) {
        self.access = access
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let rule = access.rule(of: request, context: context) else { return try await next(request, context) }
        switch rule {
        case .signature:
            break
        case .signedIn:
            _ = try context.requireUser()
        case .member, .trusted:
            guard try context.requireUser().role != .guest else { throw APIError.guestsNotAllowed }
        case .partner:
            guard [.partner, .admin].contains(try context.requireUser().role) else { throw APIError.forbidden }
        case .admin:
            guard try context.requireUser().role == .admin else { throw APIError.forbidden }
        }
        return try await next(request, context)
    }
}
