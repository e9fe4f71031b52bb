import Hummingbird

/// Runs a middleware for the operations whose `x-access` is one of `rules`, and passes every other request straight
/// on; the operation is the one the router matched (X3). auth reads the `Authorization` header on its signed-in and
/// admin operations only, so a stale token sent to login or refresh is not a 401; a payment notification's signature
/// is checked on the operations marked `signature`.
public struct OperationFilteredMiddleware<Inner: RouterMiddleware>: RouterMiddleware where Inner.Context == PlatformRequestContext {
    public typealias Context = PlatformRequestContext

    let access: OperationAccess
    let rules: Set<OperationAccess.Rule>
    let inner: Inner

    public init(_ access: OperationAccess, _ rules: Set<OperationAccess.Rule>, _ inner: Inner) {
        (self.access, self.rules, self.inner) = (access, rules, inner)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let rule = access.rule(of: request, context: context), rules.contains(rule) else { return try await next(request, context) }
        return try await inner.handle(request, context: context, next: next)
    }
}
