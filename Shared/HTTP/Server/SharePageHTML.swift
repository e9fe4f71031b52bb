import Foundation
import Hummingbird
import NIOCore

/// The public pages share links open (B4, W10): a small HTML page for people, with the Open Graph and Twitter card
/// tags that chat and social apps read for a link's preview. Every text goes through `escape`.
public enum SharePageHTML {
    public struct Preview: Sendable {
        public var siteName: String
        public var title: String
        public var description: String
        public var pageURL: String
        public var imageURL: String
        public var language: String

        public init(siteName: String, title: String, description: String, pageURL: String, imageURL: String, language: String) {
            self.siteName = siteName
            self.title = title
            self.description = String(description.prefix(200))
            self.pageURL = pageURL
            self.imageURL = imageURL
            self.language = language
        }
    }

    /// The page: the preview's tags in the head, `paragraphs` (plain text) under the title.
    public static func page(_ preview: Preview, paragraphs: [String]) -> String {
        let meta = [
            ("property", "og:type", "article"), ("property", "og:site_name", preview.siteName), ("property", "og:title", preview.title),
            ("property", "og:description", preview.description), ("property", "og:image", preview.imageURL),
            ("property", "og:url", preview.pageURL), ("name", "twitter:card", "summary_large_image"),
            ("name", "twitter:title", preview.title), ("name", "twitter:description", preview.description),
            ("name", "twitter:image", preview.imageURL), ("name", "description", preview.description),
        ].map { #"<meta \#($0.0)="\#($0.1)" content="\#(escape($0.2))">"# }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(escape(preview.language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(preview.title))</title>
            \(meta)
            <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>
            </head>
            <body>
            <main>
            <h1>\(escape(preview.title))</h1>
            \(paragraphs.map { "<p>\(escape($0))</p>" }.joined(separator: "\n"))
            </main>
            </body>
            </html>

            """
    }

    /// A short page for a link that is not (or no longer) here; search engines are asked not to keep it.
    public static func gone(_ message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(message))</title><meta name="robots" content="noindex"></head>
        <body><main><p>\(escape(message))</p></main></body></html>

        """
    }

    /// An HTML page response, cached by browsers and preview fetchers for five minutes.
    public static func response(_ status: HTTPResponse.Status, _ html: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A PNG preview image response.
    public static func image(_ png: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=86400"], body: .init(byteBuffer: png))
    }

    public static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
