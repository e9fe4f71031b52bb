import HTTPTypes
import Hummingbird

/// Replaces the request's client address with the one the trusted proxies forwarded (see `ClientAddress`).
/// Added first, so request logs and every per-address limit see the client, not the proxy.
public struct ClientAddressMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext
    let trustedProxies: [IPNetwork]

    public init(trustedProxies: [IPNetwork]) {
        self.trustedProxies = trustedProxies
    }

    public func handle(
        _ request: Request, context: PlatformRequestContext, next: (Request, PlatformRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.remoteAddress = ClientAddress.resolve(
            peer: context.remoteAddress, forwardedFor: request.headers[values: .xForwardedFor],
            forwarded: request.headers[values: .forwarded], trustedProxies: trustedProxies)
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let forwarded = Self("Forwarded")!
}
