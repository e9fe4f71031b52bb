import HTTPTypes
import Hummingbird

/// Who may call each operation of a service's API document (X3), as its `x-access` says: the one place access is
/// written. `OperationAccessMiddleware` applies the rule of the operation the router matched, never one of a path
/// prefix. An operation without `x-access` is public.
public struct OperationAccess: Sendable {
    public enum Rule: String, Sendable, CaseIterable, Hashable {
        /// Any caller with a valid token.
        case signedIn = "signed-in"
        /// A caller with an account (not a guest).
        case member
        /// A member whose token is trusted; the use case decides the trust, the edge asks for a member.
        case trusted
        /// A fortune-teller partner, or an admin acting for one (the use case decides which).
        case partner
        case admin
        /// A payment provider's signed notification, checked over the raw body (`PaymentSignatureMiddleware`).
        case signature
    }

    /// Every rule that needs a caller's token.
    public static let signedInRules: Set<Rule> = [.signedIn, .member, .trusted, .partner, .admin]

    /// An `x-access` value the platform does not know: the document and the code disagree, so the service does not
    /// start.
    public struct UnknownRule: Error, CustomStringConvertible {
        public let operation: String
        public let rule: String
        public var description: String { "\(operation): unknown x-access \(rule)" }
    }

    private let rules: [String: Rule]

    public init(rules: [(method: HTTPRequest.Method, template: String, rule: Rule)]) {
        self.rules = Dictionary(rules.map { (Self.key($0.method, $0.template), $0.rule) }) { first, _ in first }
    }

    /// The rule of the operation at `template` (the router's matched path, `{name}` or `:name` for a parameter).
    public func rule(method: HTTPRequest.Method, template: String) -> Rule? {
        rules[Self.key(method, template)]
    }

    /// The rule of the operation the router matched for `request` (its `endpointPath`); nil outside a route group or for
    /// a public operation.
    public func rule(of request: Request, context: some RequestContext) -> Rule? {
        context.endpointPath.flatMap { rule(method: request.method, template: $0) }
    }

    /// `GET /v1/cities/{}`: parameters' names do not matter, only where they are.
    static func key(_ method: HTTPRequest.Method, _ template: String) -> String {
        let segments = template.split(separator: "/").map { segment in
            segment.hasPrefix("{") || segment.hasPrefix(":") ? "{}" : String(segment)
        }
        return method.rawValue + " /" + segments.joined(separator: "/")
    }
}
