import HTTPTypes
import HummingbirdTesting

/// An HTML page as a test fetched it: its status, type and text, and the Open Graph and Twitter card tags that link
/// previews read (`meta("og:title")`).
public struct HTMLPage: Sendable {
    public var status: HTTPResponse.Status
    public var contentType: String
    public var html: String

    public func meta(_ key: String) -> String? {
        guard let range = html.range(of: #"="\#(key)" content=""#) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Fetches `url` (an absolute link under `base`) from the service behind `client`.
    public static func fetch(_ url: String, base: String, from client: HarnessClient, language: String? = nil) async throws -> HTMLPage {
        let path = url.hasPrefix(base) ? String(url.dropFirst(base.count)) : url
        var headers: HTTPFields = [:]
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil) { response in
            HTMLPage(status: response.status, contentType: response.headers[.contentType] ?? "", html: String(buffer: response.body))
        }
    }
}
