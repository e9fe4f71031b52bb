import Hummingbird

/// CORS for a list of origins (auth allows the admin dashboard's, N5): a request from one of them gets
/// Hummingbird's CORS handling (preflights answered, `Access-Control-Allow-Origin` set to that origin); a
/// request from any other origin passes untouched, so the browser refuses the other site's script the answer.
public struct AllowedOriginsMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    let origins: Set<String>
    let cors = CORSMiddleware<PlatformRequestContext>(
        allowOrigin: .originBased,
        allowHeaders: [.accept, .authorization, .contentType, .origin],
        allowMethods: [.get, .post, .put, .patch, .delete, .head, .options],
        maxAge: .seconds(600))

    public init(origins: [String]) {
        self.origins = Set(origins)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            return try await next(request, context)
        }
        return try await cors.handle(request, context: context, next: next)
    }
}
