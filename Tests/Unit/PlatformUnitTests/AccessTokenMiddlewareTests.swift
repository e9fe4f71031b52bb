import Foundation
import Hummingbird
import HummingbirdTesting
import PlatformHTTP
import Testing
import UnitTestSupport

@Suite("Access-token middleware and the JSON error edge")
struct AccessTokenMiddlewareTests {
    let tokens: TestTokens

    init() throws {
        tokens = try TestTokens()
    }

    /// A router like a service's: `/me` for any user, `/admin` for admins only.
    func makeApp() async throws -> some ApplicationProtocol {
        let verifier = try await AccessTokenVerifier(publicKey: tokens.publicKeyBase64URL, issuer: tokens.issuer)
        let router = Router(context: PlatformRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.group("me").add(middleware: AccessTokenMiddleware(verifier: verifier)).get { _, context in
            try context.requireUser().id
        }
        router.group("admin").add(middleware: AccessTokenMiddleware(verifier: verifier, allowedRoles: [.admin])).get { _, context in
            try context.requireUser().role.rawValue
        }
        router.get("boom") { _, _ -> String in throw CocoaError(.fileNoSuchFile) }
        router.post("echo") { request, context -> String in
            struct Body: Decodable { var name: String }
            return try await request.decode(as: Body.self, context: context).name
        }
        return Application(router: router)
    }

    func errorCode(_ response: TestResponse) throws -> String {
        try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body)).error.code
    }

    @Test("U7: a valid token reaches the route with its user")
    func validTokenAccepted() async throws {
        let token = try await tokens.token(userId: "u-42")
        try await makeApp().test(.router) { client in
            try await client.execute(uri: "/me", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "u-42")
            }
        }
    }

    @Test("U7: missing, malformed, expired, foreign-key and wrong-issuer tokens get 401 JSON errors")
    func badTokensRejected() async throws {
        let otherKey = try TestTokens()
        let valid = try await tokens.token()
        let tampered = String(valid.dropLast(4)) + (valid.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let cases: [(String?, String)] = [
            (nil, "unauthorized"),
            ("Basic dXNlcjpwYXNz", "unauthorized"),
            ("Bearer not.a.jwt", "invalid_token"),
            ("Bearer \(tampered)", "invalid_token"),
            ("Bearer \(try await tokens.token(expiresIn: -60))", "invalid_token"),
            ("Bearer \(try await otherKey.token())", "invalid_token"),
            ("Bearer \(try await tokens.token(issuer: "someone-else"))", "invalid_token"),
        ]
        try await makeApp().test(.router) { client in
            for (header, code) in cases {
                let headers: HTTPFields = header.map { [.authorization: $0] } ?? [:]
                try await client.execute(uri: "/me", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized, "\(header ?? "no header")")
                    let actual = try errorCode(response)
                    #expect(actual == code, "\(header ?? "no header")")
                }
            }
        }
    }

    @Test("U5: a user token cannot call an admin route; an admin token can")
    func roleCheck() async throws {
        let user = try await tokens.token(role: .user)
        let admin = try await tokens.token(role: .admin)
        try await makeApp().test(.router) { client in
            try await client.execute(uri: "/admin", method: .get, headers: [.authorization: "Bearer \(user)"]) { response in
                #expect(response.status == .forbidden)
                let code = try errorCode(response)
                #expect(code == "forbidden")
            }
            try await client.execute(uri: "/admin", method: .get, headers: [.authorization: "Bearer \(admin)"]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("X3: unknown routes, bad JSON, oversized bodies and unexpected errors all answer the JSON error shape")
    func jsonErrorEdge() async throws {
        try await makeApp().test(.router) { client in
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                let code = try errorCode(response)
                #expect(code == "not_found")
            }
            try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: "{\"name\": 3")) { response in
                #expect(response.status == .badRequest)
                let code = try errorCode(response)
                #expect(code == "bad_request")
            }
            let large = ByteBuffer(string: "{\"name\": \"" + String(repeating: "x", count: 100_000) + "\"}")
            try await client.execute(uri: "/echo", method: .post, body: large) { response in
                #expect(response.status == .contentTooLarge)
                let code = try errorCode(response)
                #expect(code == "payload_too_large")
            }
            try await client.execute(uri: "/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let code = try errorCode(response)
                #expect(code == "internal_error")
                #expect(!String(buffer: response.body).contains("fileNoSuchFile"), "internals are not leaked")
            }
        }
    }

    @Test("U7: the bearer scheme is matched in any case and blanks around the token are ignored; other schemes and empty tokens are not tokens")
    func bearerHeaderParsing() {
        #expect(AccessTokenMiddleware.bearerToken(in: "Bearer abc.def") == "abc.def")
        #expect(AccessTokenMiddleware.bearerToken(in: "bEARER   abc.def \t") == "abc.def")
        #expect(AccessTokenMiddleware.bearerToken(in: "Bearer \tabc") == "abc")
        #expect(AccessTokenMiddleware.bearerToken(in: "Bearer ") == nil)
        #expect(AccessTokenMiddleware.bearerToken(in: "Bearer    ") == nil)
        #expect(AccessTokenMiddleware.bearerToken(in: "Bearerabc") == nil)
        #expect(AccessTokenMiddleware.bearerToken(in: "Basic dXNlcjpwYXNz") == nil)
        #expect(AccessTokenMiddleware.bearerToken(in: "") == nil)
    }
}
