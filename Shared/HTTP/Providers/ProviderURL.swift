import Foundation

/// A provider request URL: the configured base (which may carry a path prefix, with or without a trailing
/// slash), the endpoint's path, and the query, percent-encoded.
public enum ProviderURL {
    public static func make(base: String, path: String, query: [URLQueryItem]) -> String {
        // The base was validated as an http(s) URL when the configuration was read.
        var components = URLComponents(string: base.hasSuffix("/") ? String(base.dropLast()) : base)!
        components.path += path
        components.queryItems = query.isEmpty ? nil : query
        return components.string!
    }
}
