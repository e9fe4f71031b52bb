import Hummingbird

/// Answers 405 with `Allow` when a request's path exists with other methods (RFC 9110 §15.5.6). The router
/// alone answers 404 for any method it has no route for, which tells a client the path is wrong when only
/// the method is.
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Path templates split into segments (`{name}` matches any one segment), with their methods.
    let routes: [(segments: [Substring], methods: [HTTPRequest.Method])]

    public init(routes: [(template: String, methods: [HTTPRequest.Method])]) {
        self.routes = routes.map { ($0.template.split(separator: "/"), $0.methods) }
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = allowedMethods(forPath: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(
                .methodNotAllowed, code: "method_not_allowed", message: "\(request.uri.path) answers \(allow)", headers: [.allow: allow])
        }
    }

    func allowedMethods(forPath path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        var methods: [HTTPRequest.Method] = []
        for route in routes where route.segments.count == segments.count {
            let matches = zip(route.segments, segments).allSatisfy { template, segment in
                template.first == "{" || template == segment
            }
            if matches { methods += route.methods.filter { !methods.contains($0) } }
        }
        // Hummingbird answers HEAD wherever it answers GET.
        if methods.contains(.get), !methods.contains(.head) { methods.append(.head) }
        return methods
    }
}
