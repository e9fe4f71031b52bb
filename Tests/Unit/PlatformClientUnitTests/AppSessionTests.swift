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

    func session(_ transport: some ClientTransport, store: MemoryTokenStore = MemoryTokenStore()) -> AppSession {
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
        let store = MemoryTokenStore(
            SessionTokens(accessToken: "old", refreshToken: "r-old", expiresAt: Date().addingTimeInterval(30), accountId: "x"))
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

    @Test("an install whose refresh token auth no longer takes is told so once, then starts a new install account")
    func spentRefreshStartsOver() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "spent", expiresAt: .distantPast, accountId: "x"))
        let transport = ScriptedTransport { operation, _, _, _ in
            operation == "refreshSession" ? (.unauthorized, errorJSON) : (.created, sessionJSON(access: "fresh", refresh: "r-fresh"))
        }
        let session = session(transport, store: store)
        do {
            _ = try await session.accessToken()
            Issue.record("an ended account must be told, not replaced in silence")
        } catch SessionError.accountEnded(let error) {
            #expect(error?.error.code == "invalid_refresh_token")
        }
        #expect(await store.load() == nil)
        #expect(try await session.accessToken() == "fresh")
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
        } catch SessionError.accountEnded(let error) {
            #expect(error?.error.code == "invalid_refresh_token")
        }
        #expect(await store.load() == nil)
        #expect(try await session.accessTokenIfSignedIn() == nil)
    }

    @Test("a 401 invalid_token renews the token and sends the request once more; a second 401 goes to the caller")
    func retryAfterUnauthorized() async throws {
        let store = MemoryTokenStore(
            SessionTokens(accessToken: "revoked", refreshToken: "r1", expiresAt: Date().addingTimeInterval(600), accountId: "x"))
        let transport = ScriptedTransport { operation, request, _, _ in
            switch operation {
            case "refreshSession": return (.ok, sessionJSON(access: "renewed", refresh: "r2"))
            case "getProfile" where request.headerFields[.authorization] == "Bearer renewed":
                return (
                    .ok, #"{"account":{"id":"7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01","kind":"install","role":"user","entitlements":[],"banned":false}}"#
                )
            default: return (.unauthorized, invalidTokenJSON)
            }
        }
        let session = session(transport, store: store)
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session)])
        let profile = try await client.getProfile().ok.body.json
        #expect(profile.account.id == "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01")
        #expect(await transport.calls("getProfile").map(\.authorization) == ["Bearer revoked", "Bearer renewed"])

        // Revoked again (a deleted account): one renewal, one more try, then the caller sees the 401.
        let denying = ScriptedTransport { operation, _, _, call in
            operation == "refreshSession" ? (.ok, sessionJSON(access: "again\(call)", refresh: "r\(call + 2)")) : (.unauthorized, invalidTokenJSON)
        }
        let denied = Client(serverURL: auth, transport: denying, middlewares: [SessionMiddleware(session: self.session(denying, store: store))])
        guard case .unauthorized(let answer) = try await denied.getProfile() else {
            Issue.record("a second 401 must reach the caller")
            return
        }
        #expect(try answer.body.json.error.code == "invalid_token")
        #expect(await denying.calls("getProfile").count == 2)
    }

    @Test("a 401 that is not about the token (a spent install refresh token) is not sent again, and keeps its body")
    func otherUnauthorizedNotRetried() async throws {
        let store = MemoryTokenStore(
            SessionTokens(accessToken: "fine", refreshToken: "r1", expiresAt: Date().addingTimeInterval(600), accountId: "x"))
        let transport = ScriptedTransport { _, _, _, _ in (.unauthorized, errorJSON) }
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session(transport, store: store))])
        guard case .unauthorized(let answer) = try await client.mergeInstallAccount(body: .json(.init(installRefreshToken: "spent"))) else {
            Issue.record("the 401 must reach the caller")
            return
        }
        #expect(try answer.body.json.error.code == "invalid_refresh_token")
        #expect(await transport.sent.map(\.operationID) == ["mergeInstallAccount"])
    }

    @Test("many requests turned away with one revoked token share one renewal (a refresh token works once)")
    func concurrentUnauthorizedShareRenewal() async throws {
        let store = MemoryTokenStore(
            SessionTokens(accessToken: "revoked", refreshToken: "r1", expiresAt: Date().addingTimeInterval(600), accountId: "x"))
        let transport = ScriptedTransport { operation, request, _, call in
            switch operation {
            case "refreshSession":
                Thread.sleep(forTimeInterval: 0.05)  // in flight while the others arrive
                return (.ok, sessionJSON(access: "renewed\(call)", refresh: "r\(call + 1)"))
            case _ where request.headerFields[.authorization] == "Bearer renewed1":
                return (.ok, #"{"account":{"id":"x","kind":"install","role":"user","entitlements":[],"banned":false}}"#)
            default: return (.unauthorized, invalidTokenJSON)
            }
        }
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session(transport, store: store))])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try await client.getProfile().ok } }
            try await group.waitForAll()
        }
        #expect(await transport.calls("refreshSession").count == 1)
    }

    @Test("through a client, an ended account is said once (ClientError wrapping accountEnded); the next request has a new install account")
    func endedAccountReachesCaller() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "spent", expiresAt: .distantPast, accountId: "x"))
        let transport = ScriptedTransport { operation, request, _, _ in
            switch operation {
            case "refreshSession": return (.unauthorized, errorJSON)
            case "createInstallAccount": return (.created, sessionJSON(access: "fresh", refresh: "r-fresh"))
            case _ where request.headerFields[.authorization] == "Bearer fresh":
                return (.ok, #"{"account":{"id":"x","kind":"install","role":"user","entitlements":[],"banned":false}}"#)
            default: return (.unauthorized, invalidTokenJSON)
            }
        }
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session(transport, store: store))])
        do {
            _ = try await client.getProfile()
            Issue.record("the ended account must reach the caller")
        } catch let error as ClientError {
            guard case SessionError.accountEnded(let body)? = error.underlyingError as? SessionError else {
                Issue.record("expected accountEnded, got \(error.underlyingError)")
                return
            }
            #expect(body?.error.code == "invalid_refresh_token")
        }
        #expect(await transport.calls("getProfile").isEmpty, "nothing is sent for an account that ended")
        _ = try await client.getProfile().ok
        #expect(await transport.calls("getProfile").map(\.authorization) == ["Bearer fresh"])
    }

    @Test("when auth cannot be reached to start a session, the request goes without a token and its 401 reaches the caller")
    func unreachableAuthSendsWithout() async throws {
        let answers = ScriptedTransport { _, request, _, _ in
            request.headerFields[.authorization] == nil ? (.unauthorized, invalidTokenJSON) : (.ok, "{}")
        }
        let transport = UnreachableAuth(rest: answers)
        let client = Client(serverURL: auth, transport: transport, middlewares: [SessionMiddleware(session: session(transport))])
        guard case .unauthorized(let answer) = try await client.getProfile() else {
            Issue.record("a protected operation without a token answers its typed 401")
            return
        }
        #expect(try answer.body.json.error.code == "invalid_token")
        #expect(await answers.calls("getProfile").map(\.authorization) == [nil])
    }

    @Test("a renewal whose answer comes after forget keeps nothing")
    func forgetWinsOverLateRenewal() async throws {
        let store = MemoryTokenStore(SessionTokens(accessToken: "old", refreshToken: "r1", expiresAt: .distantPast, accountId: "x"))
        let transport = ScriptedTransport { _, _, _, _ in
            Thread.sleep(forTimeInterval: 0.2)
            return (.ok, sessionJSON(access: "late", refresh: "r-late"))
        }
        let session = session(transport, store: store)
        let renewing = Task { try await session.accessToken() }
        try await Task.sleep(for: .milliseconds(50))
        try await session.forget()
        _ = try? await renewing.value
        #expect(await store.load() == nil)
    }

    @Test("a file store keeps the tokens readable by its owner only, and forgets them")
    func fileStore() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let store: any TokenStore = FileTokenStore(url: url)
        let tokens = SessionTokens(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_000), accountId: "x")
        try await store.save(tokens)
        #expect(try await store.load() == tokens)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try await store.save(nil)
        #expect(try await store.load() == nil)
    }
}
