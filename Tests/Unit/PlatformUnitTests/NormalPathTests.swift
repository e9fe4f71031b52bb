import Foundation
import Testing

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

/// X3: access rules compare the path the router will match, so every other spelling of a path is refused
/// before them (`NormalPathMiddleware`).
@Suite("Paths in normal form only")
struct NormalPathTests {
    @Test(
        "X3: normal paths pass, with any case and escapes in later segments",
        arguments: [
            "/", "/health", "/v1/me/favourites/2950159", "/.well-known/jwks.json", "/v1/cities/ABC%20x", "/v1/me/devices/AbC123",
            "/dashboard/assets/app.js", "/dashboard/", "/v1/partners/9f0e/slots",
        ])
    func normal(_ path: String) {
        #expect(NormalPathMiddleware<PlatformRequestContext>.problem(in: path) == nil)
    }

    @Test(
        "X3: doubled slashes, dot segments, encoded separators, an upper-case first segment and a trailing slash are refused",
        arguments: [
            "//v1/payments/webhook", "/v1//me/favourites", "/./v1/admin/stream", "/v1/./admin/stream", "/v1/a/../admin/stream",
            "/v1/admin/..", "/v1%2Fadmin/stream", "/v1%2fadmin/stream", "/v1/admin%2Estream", "/v1/%2e%2e/admin", "/V1/admin/stream",
            "/v1/admin/stream/", "/v1\\admin", "/v1%5Cadmin", "", "v1/admin",
        ])
    func refused(_ path: String) {
        #expect(NormalPathMiddleware<PlatformRequestContext>.problem(in: path) != nil)
    }
}
