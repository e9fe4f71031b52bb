import AuthContract
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PlatformClient
import Testing

/// The apps' session (X6): an install account on first use, renewal before expiry, one renewal at a time (a
/// refresh token works once, U7), and a request sent again once after a 401.
@Suite("PlatformClient: the app session")
struct AppSessionTests {
    let auth = URL(string: "http://auth.test")!

    func session(_ transport: ScriptedTransport, store: MemoryTokenStore = MemoryTokenStore()) -> AppSession {
        AppSession.install(app: .weather, installId: "install-1", auth: Client(serverURL: auth, transport: transport), store: store)
    }

    @Test("an install account is created once, however many requests start at the same time")
    func installOnce() async throws {
        let transport = ScriptedTransport { operation, _, _, call in
            operation == "createInstallAccount" ? (.created, sessionJSON(access: "a\(call)", refresh: "r\(call)")) : (.notFound, errorJSON)
        }
        let session = session(transport)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await session.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens == ["a1"])
        #expect(await transport.calls("createInstallAccount").count == 1)
        let body = try #require(await transport.calls("createInstallAccount").first?.body)
        let sent = try JSONSerialization.jsonObject(with: body) as? [String: String]
        #expect(sent == ["app": "weather", "installId": "install-1"])
    }

    @Test("a token with less than a minute left is renewed once by its refresh token, and the new pair is kept")
    func renewsBeforeExpiry() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "r-old", expiresAt: Date().addingTimeInterval(30), accountId: "x"))
        let transport = ScriptedTransport { operation, _, body, call in
            operation == "refreshSession" ? (.ok, sessionJSON(access: "new\(call)", refresh: "r-new\(call)")) : (.notFound, errorJSON)
        }
        let session = session(transport, store: store)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await session.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens == ["new1"])
        let refreshes = await transport.calls("refreshSession")
        #expect(refreshes.count == 1)
        #expect(String(decoding: refreshes[0].body, as: UTF8.self).contains("r-old"))
        #expect(await store.load()?.refreshToken == "r-new1")
        #expect(await transport.calls("createInstallAccount").isEmpty)
    }

    @Test("a fresh token is sent as it is")
    func freshTokenKept() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "kept", refreshToken: "r", expiresAt: Date().addingTimeInterval(600), accountId: "x"))
        let transport = ScriptedTransport { _, _, _, _ in (.internalServerError, errorJSON) }
        #expect(try await session(transport, store: store).accessToken() == "kept")
        #expect(await transport.sent.isEmpty)
    }

    @Test("an install whose refresh token auth no longer takes starts a new install account")
    func spentRefreshStartsOver() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "spent", expiresAt: .distantPast, accountId: "x"))
        let transport = ScriptedTransport { operation, _, _, _ in
            operation == "refreshSession" ? (.unauthorized, errorJSON) : (.created, sessionJSON(access: "fresh", refresh: "r-fresh"))
        }
        #expect(try await session(transport, store: store).accessToken() == "fresh")
        #expect(await store.load()?.refreshToken == "r-fresh")
    }

    @Test("a signed-in app's session with a refused refresh token is signed out, with auth's error body")
    func signedInRefused() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "spent", expiresAt: .distantPast, accountId: "x"))
        let transport = ScriptedTransport { _, _, _, _ in (.unauthorized, errorJSON) }
        let session = AppSession(auth: Client(serverURL: auth, transport: transport), store: store)
        do {
            _ = try await session.accessToken()
            Issue.record("a refused refresh must not give a token")
        } catch SessionError.refused(let status, let error) {
            #expect(status == 401)
            #expect(error?.error.code == "invalid_refresh_token")
        }
        #expect(await store.load() == nil)
        #expect(try await session.accessTokenIfSignedIn() == nil)
    }

    @Test("a 401 renews the token and sends the request once more; a second 401 goes to the caller")
    func retryAfterUnauthorized() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "revoked", refreshToken: "r1", expiresAt: Date().addingTimeInterval(600), accountId: "x"))
        let transport = ScriptedTransport { operation, request, _, _ in
            switch operation {
            case "refreshSession": return (.ok, sessionJSON(access: "renewed", refresh: "r2"))
            case "getProfile" where request.headerFields[.authorization] == "Bearer renewed":
                return (.ok, #"{"account":{"id":"7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01","kind":"install","role":"user","entitlements":[],"banned":false}}"#)
            default: return (.unauthorized, errorJSON)
            }
        }
        let session = session(transport, store: store)
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session)])
        let profile = try await client.getProfile().ok.body.json
        #expect(profile.account.id == "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01")
        #expect(await transport.calls("getProfile").map(\.authorization) == ["Bearer revoked", "Bearer renewed"])

        // Revoked again (a deleted account): one renewal, one more try, then the caller sees the 401.
        let denying = ScriptedTransport { operation, _, _, call in
            operation == "refreshSession" ? (.ok, sessionJSON(access: "again\(call)", refresh: "r\(call + 2)")) : (.unauthorized, errorJSON)
        }
        let denied = Client(serverURL: auth, transport: denying, middlewares: [SessionMiddleware(session: self.session(denying, store: store))])
        guard case .unauthorized(let answer) = try await denied.getProfile() else {
            Issue.record("a second 401 must reach the caller")
            return
        }
        #expect(try answer.body.json.error.code == "invalid_refresh_token")
        #expect(await denying.calls("getProfile").count == 2)
    }
}
