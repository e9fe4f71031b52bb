import Hummingbird

/// Runs a middleware for the paths under some prefixes only, and passes every other request straight on. For
/// a generated router, where all operations share one group: auth reads the `Authorization` header on its
/// signed-in and admin operations only, so a stale token sent to login or refresh is not a 401.
public struct PathFilteredMiddleware<Inner: RouterMiddleware>: RouterMiddleware where Inner.Context == PlatformRequestContext {
    public typealias Context = PlatformRequestContext

    let prefixes: [String]
    let inner: Inner

    public init(_ prefixes: [String], _ inner: Inner) {
        (self.prefixes, self.inner) = (prefixes, inner)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard prefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else {
            return try await next(request, context)
        }
        return try await inner.handle(request, context: context, next: next)
    }
}
