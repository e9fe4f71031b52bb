import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformCore
import PlatformHTTP
import Testing
import UnitTestSupport

/// Access is each operation's `x-access`, applied to the operation the router matched (X3): a path that merely
/// starts like a protected one is not protected, and a protected one is whatever its parameters are.
@Suite("Access from the operations' x-access")
struct OperationAccessTests {
    static let document = OpenAPIDocument(
        bytes: Array(
            """
            openapi: 3.1.0
            paths:
              /v1/admin/users/{accountId}:
                get:
                  operationId: getUser
                  x-access: admin
                delete:
                  operationId: deleteUser
                  x-access: admin
              /v1/admin-news:
                get:
                  operationId: news
              /v1/me:
                get:
                  operationId: me
                  x-access: member
              /v1/me/settings:
                get:
                  operationId: settings
                  x-access: signed-in
            components:
              schemas:
                x-access: {type: string}
            """.utf8))

    struct Body: Decodable {
        struct Error: Decodable { var code: String }
        var error: Error
    }

    @Test("X3: each operation's rule is read with its method; parameters match whatever they are named")
    func rulesRead() throws {
        let access = try Self.document.operationAccess()
        #expect(access.rule(method: .get, template: "/v1/admin/users/{accountId}") == .admin)
        #expect(access.rule(method: .delete, template: "/v1/admin/users/:id") == .admin)
        #expect(access.rule(method: .get, template: "v1/me") == .member)
        #expect(access.rule(method: .post, template: "/v1/me") == nil)
        #expect(access.rule(method: .get, template: "/v1/admin-news") == nil)
    }

    @Test("X3: an x-access the platform does not know stops the service from starting")
    func unknownRuleRefused() {
        let document = OpenAPIDocument(bytes: Array("paths:\n  /v1/x:\n    get:\n      x-access: everyone\n".utf8))
        #expect(throws: OperationAccess.UnknownRule.self) { try document.operationAccess() }
    }

    static func makeApp(tokens: TestTokens) async throws -> some ApplicationProtocol {
        let verifier = try await AccessTokenVerifier(publicKey: tokens.publicKeyBase64URL, issuer: tokens.issuer)
        let router = Router(context: PlatformRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        let group = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier, optional: true))
            .add(middleware: OperationAccessMiddleware(try document.operationAccess()))
        group.get("v1/admin/users/{accountId}") { _, context in context.parameters.get("accountId") ?? "" }
        group.get("v1/admin-news") { _, _ in "news" }
        group.get("v1/me") { _, context in try context.requireUser().id }
        return Application(router: router)
    }

    static func code(_ response: TestResponse) throws -> String {
        try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).error.code
    }

    @Test("X3: the matched operation's rule answers: 401 without a token, 403 for another role, through on its own")
    func middlewareApplies() async throws {
        let tokens = try TestTokens()
        let user = try await tokens.token(userId: "u-1")
        let admin = try await tokens.token(userId: "a-1", role: .admin)
        try await Self.makeApp(tokens: tokens).test(.router) { client in
            try await client.execute(uri: "/v1/admin/users/42", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/admin/users/42", method: .get, headers: [.authorization: "Bearer \(user)"]) { response in
                let code = try Self.code(response)
                #expect(response.status == .forbidden && code == "forbidden")
            }
            try await client.execute(uri: "/v1/admin/users/42", method: .get, headers: [.authorization: "Bearer \(admin)"]) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "42")
            }
            // Public, though its path starts as the admin operations' do.
            try await client.execute(uri: "/v1/admin-news", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(user)"]) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "u-1")
            }
        }
    }
}
