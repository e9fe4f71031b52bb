import Foundation
import HTTPTypes
import Hummingbird
import PlatformHTTP

/// The admin dashboard's page (N5), served from the files bundled with the service: `/dashboard/` and the
/// reset page auth's mail links to (`/dashboard/reset-password`) answer the one page, `/dashboard/assets/*`
/// its scripts and styles, `/dashboard/config.json` where the browser finds auth. Read once at start-up.
struct DashboardFiles: Sendable {
    struct File: Sendable {
        let body: ByteBuffer
        let contentType: String
    }

    let page: File
    let assets: [String: File]
    let config: ByteBuffer

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
    ]

    init(bundle: Bundle, authBaseURL: String) throws {
        guard let folder = bundle.url(forResource: "Dashboard", withExtension: nil) else {
            throw DashboardMissing(reason: "the Dashboard folder is not in the service's resources")
        }
        var assets: [String: File] = [:]
        var page: File?
        for url in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            let name = url.lastPathComponent
            guard let type = Self.contentTypes[url.pathExtension.lowercased()] else { continue }
            let file = File(body: ByteBuffer(bytes: try Data(contentsOf: url)), contentType: type)
            if name == "index.html" { page = file } else { assets[name] = file }
        }
        guard let page else { throw DashboardMissing(reason: "Dashboard/index.html is missing") }
        self.page = page
        self.assets = assets
        config = ByteBuffer(bytes: try JSONEncoder().encode(["authBaseUrl": authBaseURL]))
    }

    struct DashboardMissing: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    func add(to router: Router<PlatformRequestContext>) {
        router.get("dashboard") { _, _ in Self.response(page) }
        router.get("dashboard/reset-password") { _, _ in Self.response(page) }
        router.get("dashboard/config.json") { [config] _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: config))
        }
        router.get("dashboard/assets/:file") { [assets] _, context in
            guard let name = context.parameters.get("file"), let file = assets[name] else { throw APIError.notFound("no such file") }
            return Self.response(file)
        }
    }

    static func response(_ file: File) -> Response {
        // The page carries no secrets; a short cache keeps reloads cheap while a deploy shows within a minute.
        var headers: HTTPFields = [.contentType: file.contentType, .cacheControl: "max-age=60"]
        for (name, value) in securityHeaders {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    /// The page runs only its own scripts and styles; it may call auth (another origin) and nothing frames it.
    static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; connect-src *; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
    ]
}
