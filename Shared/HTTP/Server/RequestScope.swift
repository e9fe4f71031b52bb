import Hummingbird
import PlatformCore

/// The request context where generated handlers can reach it. swift-openapi-generator's handlers receive
/// the operation's input only; the caller proven by `AccessTokenMiddleware` (and the request's logger)
/// travel to them in a task-local set by `RequestScopeMiddleware`.
public enum RequestScope {
    @TaskLocal public static var context: PlatformRequestContext?

    /// The verified caller; 401 when the route was not behind `AccessTokenMiddleware`.
    public static func requireUser() throws -> AuthenticatedUser {
        guard let context else { throw APIError.unauthorized }
        return try context.requireUser()
    }

    /// The verified caller, not a guest: guest sessions (the horoscope app's, without an account behind them)
    /// may read but not create shared data; 403 `guests_not_allowed` for them.
    public static func requireMember() throws -> AuthenticatedUser {
        guard let context else { throw APIError.unauthorized }
        return try context.requireMember()
    }

    /// The verified caller holding one of `roles`; 401 without a caller, 403 for another role.
    public static func requireRole(_ roles: Set<UserRole>) throws -> AuthenticatedUser {
        let user = try requireUser()
        guard roles.contains(user.role) else { throw APIError.forbidden }
        return user
    }
}

/// Puts the request context in `RequestScope.context` for the handlers behind it.
public struct RequestScopeMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await RequestScope.$context.withValue(context) {
            try await next(request, context)
        }
    }
}

extension RequestScope {
    /// The caller's IP address, for per-address limits ("unknown" outside a request).
    public static var remoteAddress: String { context?.remoteAddress ?? "unknown" }

    /// The key per-address limits count the caller under (`ClientAddress.limitKey`: an IPv6 client's /64).
    public static var clientKey: String { ClientAddress.limitKey(remoteAddress) }

    /// The networks per-network limits count the caller under (`ClientAddress.networks`).
    public static var clientNetworks: ClientNetworks { ClientAddress.networks(remoteAddress) }
}
