import HTTPTypes
import Hummingbird

/// Replaces the request's client address with the one the trusted proxies forwarded (see `ClientAddress`).
/// Added first, so request logs and every per-address limit see the client, not the proxy.
public struct ClientAddressMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext
    let trustedProxies: [IPNetwork]
    let header: ClientAddress.Header

    public init(trustedProxies: [IPNetwork], header: ClientAddress.Header = .xForwardedFor) {
        self.trustedProxies = trustedProxies
        self.header = header
    }

    public func handle(
        _ request: Request, context: PlatformRequestContext, next: (Request, PlatformRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let values = request.headers[values: header == .xForwardedFor ? .xForwardedFor : .forwarded]
        context.remoteAddress = ClientAddress.resolve(
            peer: context.remoteAddress, header: header, values: values, trustedProxies: trustedProxies)
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let forwarded = Self("Forwarded")!
}
