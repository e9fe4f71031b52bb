import Hummingbird
import PlatformHTTP

extension PlatformRuntime {
    /// Whether routes read a caller's token when one comes (a bad one is still refused) or require one.
    public enum TokenUse: Sendable {
        case optional
        case required
    }

    /// The chain every service's generated API runs behind, written once: the caller's token, access decided by the
    /// `x-access` of the operation the router matched (`access`, read from the service's document), then the body
    /// checks every operation shares. `before` runs ahead of them (a payment webhook's signature check on the raw body).
    public func apiRoutes(
        on router: Router<PlatformRequestContext>, access: OperationAccess, token: TokenUse = .optional,
        before: [any MiddlewareProtocol<Request, Response, PlatformRequestContext>] = []
    ) -> RouterGroup<PlatformRequestContext> {
        apiRoutes(on: router, first: before + [tokenMiddleware(token), OperationAccessMiddleware(access)])
    }

    /// The same chain with its own first steps (auth reads tokens on some paths only, checks the payment
    /// webhook's signature and reads an empty DELETE body as `{}`); then JSON nulls are refused and the
    /// request's scope is set.
    public func apiRoutes(
        on router: Router<PlatformRequestContext>, first middlewares: [any MiddlewareProtocol<Request, Response, PlatformRequestContext>]
    ) -> RouterGroup<PlatformRequestContext> {
        let group = router.group()
        for middleware in middlewares { group.add(middleware: middleware) }
        return group.add(middleware: NoNullsMiddleware()).add(middleware: RequestScopeMiddleware())
    }

    /// The token check alone, for the hand-registered hot routes, which read the caller from their context and
    /// take no body.
    public func hotRoutes(on router: Router<PlatformRequestContext>, token: TokenUse = .optional) -> RouterGroup<PlatformRequestContext> {
        router.group().add(middleware: tokenMiddleware(token))
    }

    private func tokenMiddleware(_ use: TokenUse) -> AccessTokenMiddleware {
        AccessTokenMiddleware(verifier: tokenVerifier, optional: use == .optional)
    }
}
