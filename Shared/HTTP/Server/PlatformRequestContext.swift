import Hummingbird
import PlatformCore

/// The request context of every service: Hummingbird's core plus the caller proven by the access token.
public struct PlatformRequestContext: RequestContext, Sendable {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AccessTokenMiddleware`; nil on routes that do not require a user.
    public var user: AuthenticatedUser?
    /// The client's IP address (for per-address throttling), or `unknown`: the connection's peer, or behind
    /// trusted proxies the address they forwarded (`ClientAddressMiddleware`).
    public var remoteAddress: String
    /// Set by a middleware that checked the raw body's signature (auth's payment webhook), so the handler
    /// behind it can refuse a request that reached it some other way.
    public var signatureVerified = false

    public init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// 64 KiB is plenty for any JSON body of these APIs; larger bodies get a 413 JSON error.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The verified caller, not a guest (see `RequestScope.requireMember`).
    public func requireMember() throws -> AuthenticatedUser {
        let user = try requireUser()
        guard user.role != .guest else { throw APIError.guestsNotAllowed }
        return user
    }

    /// The verified caller; throws 401 when the route was not behind `AccessTokenMiddleware`.
    public func requireUser() throws -> AuthenticatedUser {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
