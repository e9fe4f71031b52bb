import Foundation
import Hummingbird
import Logging

/// Logs each request's method, path and client address (behind trusted proxies, the forwarded one), and its query with the values of parameters that carry secrets
/// replaced (a reset link's `token`, a `code`, a key): request logs are read by more people, and kept longer,
/// than the credentials they would otherwise hold. Hummingbird's own request logger logs the whole URI.
public struct RequestLogMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext
    /// Query parameter names whose values never reach a log, compared case-insensitively.
    public static let secretParameters: Set<String> = {
        [
            "token", "code", "pin", "password", "secret", "key", "apikey", "api_key", "signature", "sig", "idtoken", "id_token",
            "access_token", "refresh_token", "refreshtoken", "accesstoken", "nonce", "state",
        ]
    }()

    /// Routes whose path carries a credential (a push device token, a reading's share id): that segment never
    /// reaches a log or a span. `*` marks it; every other segment must match as written.
    public static let secretPathTemplates: [[String]] = [["v1", "me", "devices", "*"], ["v1", "shared", "readings", "*"]]

    let level: Logger.Level

    public init(_ level: Logger.Level = .info) {
        self.level = level
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The line's metadata is built only when it will be written: at a quieter level this middleware costs nothing.
        guard context.logger.logLevel <= level else { return try await next(request, context) }
        var metadata: Logger.Metadata = [
            "hb.request.method": .string(request.method.rawValue), "hb.request.path": .string(Self.redacted(path: request.uri.path)),
            "client": .string(context.remoteAddress),
        ]
        if let query = request.uri.query, !query.isEmpty {
            metadata["hb.request.query"] = .string(Self.redacted(query: query))
        }
        context.logger.log(level: level, "Request", metadata: metadata)
        return try await next(request, context)
    }

    /// `/v1/me/devices/abc` → `/v1/me/devices/REDACTED`; other paths as they are.
    static func redacted(path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        for template in secretPathTemplates where template.count == segments.count {
            guard zip(template, segments).allSatisfy({ $0 == "*" || $0 == $1.lowercased() }) else { continue }
            return "/" + zip(template, segments).map { $0 == "*" ? "REDACTED" : $1 }.joined(separator: "/")
        }
        return path
    }

    /// `a=1&token=abc` → `a=1&token=REDACTED`. Works on the raw (still percent-encoded) text, so a name written
    /// with escapes (`%74oken`) is decoded before it is compared.
    static func redacted(query: String) -> String {
        // Most queries name no secret: the text is answered as it is, and a name without escapes is compared without
        // Foundation's percent decoding (this runs for every request with a query, twice with tracing on).
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
        guard pairs.contains(where: isSecret) else { return query }
        return pairs.map { pair in isSecret(pair) ? "\(pair.prefix { $0 != "=" })=REDACTED" : String(pair) }.joined(separator: "&")
    }

    /// Whether a `name=value` pair's name is a secret parameter's (a name alone, without `=`, carries no value).
    private static func isSecret(_ pair: Substring) -> Bool {
        guard let equals = pair.firstIndex(of: "=") else { return false }
        let rawName = pair[..<equals]
        let name =
            rawName.contains(where: { $0 == "%" || $0 == "+" })
            ? (rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)) : String(rawName)
        return secretParameters.contains(name.lowercased())
    }
}
