import Foundation

extension EnvironmentReader {
    /// `PUBLIC_BASE_URL`: where the public reaches a service, without a trailing slash, so that the share links it
    /// hands out are absolute (B4, W10).
    public func publicBaseURL(default fallback: String) throws(ConfigError) -> String {
        try Self.publicBaseURL(string("PUBLIC_BASE_URL", default: fallback))
    }

    public static func publicBaseURL(_ text: String) throws(ConfigError) -> String {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let expected = "an http:// or https:// URL without query or fragment, at most 200 characters"
        guard trimmed.count <= 200, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else { throw ConfigError.malformed(variable: "PUBLIC_BASE_URL", value: text, expected: expected) }
        return trimmed
    }
}
