import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

/// auth's requests as its document describes them (X3): one error code for malformed JSON, tokens read only where
/// the document asks for one. Schemathesis runs in `FuzzedContractTests`.
@Suite("auth: requests as documented")
struct AuthDocumentedRequestTests {
    @Test("X3: malformed JSON is 400 invalid_json, a wrong type 400 invalid_request, like every other service")
    func oneErrorCodeForBadJSON() async throws {
        try await AuthTestHarness.run { auth in
            var (status, body) = try await auth.request(.post, "/v1/dashboard/login", body: Data("{not json".utf8))
            #expect(status == .badRequest && body["error.code"] == "invalid_json")
            (status, body) = try await auth.request(.post, "/v1/survey/login", body: Data(#"{"email": 12, "pin": "ab12"}"#.utf8))
            #expect(status == .badRequest && body["error.code"] == "invalid_request")
            (status, body) = try await auth.request(.post, "/v1/survey/login", body: Data(#"{"email": null}"#.utf8))
            #expect(status == .badRequest)
        }
    }

    @Test("X3: only signed-in operations read the token: a stale one on login or refresh is ignored, and logout without one is 401")
    func tokensReadWhereDocumented() async throws {
        try await AuthTestHarness.run { auth in
            let garbage = "not.a.token"
            var (status, body) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"], bearer: garbage)
            #expect(status == .ok)
            let refresh = try #require(body["refreshToken"])
            (status, _) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh], bearer: garbage)
            #expect(status == .ok)
            (status, body) = try await auth.post("/v1/sessions/logout", ["refreshToken": refresh])
            #expect(status == .unauthorized)
            (status, _) = try await auth.request(.get, "/v1/admin/users", bearer: garbage)
            #expect(status == .unauthorized)
        }
    }
}
