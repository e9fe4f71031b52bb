import Hummingbird
import PlatformCore

/// Requires a caller (and, optionally, a role) for every path under a prefix, before the generated layer
/// reads the request: otherwise a request without a token to a signed-in operation would be answered 400
/// for its body rather than 401. Behind `AccessTokenMiddleware`, which puts the caller in the context.
public struct PathAccessMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext

    public struct Rule: Sendable {
        public var prefix: String
        /// Nil: any signed-in caller.
        public var roles: Set<UserRole>?

        /// Signed-in callers with an account: guests get 403 `guests_not_allowed`.
        public static func members(_ prefix: String) -> Rule {
            Rule(prefix: prefix, roles: Set(UserRole.allCases).subtracting([.guest]))
        }

        public init(prefix: String, roles: Set<UserRole>? = nil) {
            (self.prefix, self.roles) = (prefix, roles)
        }
    }

    let rules: [Rule]

    public init(_ rules: [Rule]) {
        self.rules = rules
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        for rule in rules where path == rule.prefix || path.hasPrefix(rule.prefix + "/") {
            let user = try context.requireUser()
            if let roles = rule.roles, !roles.contains(user.role) {
                throw user.role == .guest && roles.contains(.user) ? APIError.guestsNotAllowed : APIError.forbidden
            }
        }
        return try await next(request, context)
    }
}
