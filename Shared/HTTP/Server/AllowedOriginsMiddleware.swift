import Hummingbird

/// CORS for a list of origins (auth allows the admin dashboard's, N5): a request from one of them gets
/// Hummingbird's CORS handling (preflights answered, `Access-Control-Allow-Origin` set to that origin); a
/// request from any other origin passes untouched, so the browser refuses the other site's script the answer.
public struct AllowedOriginsMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    let origins: Set<String>
    let errors = JSONErrorMiddleware<PlatformRequestContext>()
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
        // Errors become their JSON answers before CORS sees them: Hummingbird's CORS wraps a thrown error in a
        // type the edge cannot read, which turned a 401 `wrong_password` into a 500 (and logged the request).
        return try await cors.handle(request, context: context) { request, context in
            try await errors.handle(request, context: context, next: next)
        }
    }
}
