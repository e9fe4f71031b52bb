import Foundation
import HTTPTypes
import TestSupport
import Testing

/// The real auth service for the account lifecycle tests (U9), publishing its account events to a topic of the test's own
/// that the service under test reads; with a fake OpenID Connect provider when the test signs in for real.
package enum LifecycleAuth {
    /// auth's setting that trusts installs at once: for tests of what an install owns and does, not of whether it is
    /// trusted with what costs others (`AuthInstallTrustTests`).
    package static let trustingInstalls = ["INSTALL_TRUST_AFTER_HOURS": "0"]

    package static func run(
        oidc idp: FakeIdentityProvider? = nil, extraEnvironment: [String: String] = [:],
        _ body: @Sendable (AuthTestHarness, _ usersTopic: String) async throws -> Void
    ) async throws {
        let users = "test.users.\(uniqueSuffix())"
        try await createTopics([users], partitions: 2, brokers: TestInfrastructure.current.kafkaBrokers)
        var environment = ["AUTH_USERS_TOPIC": users, "OUTBOX_IDLE_INTERVAL_MS": "20"]
        if let idp {
            environment.merge([
                "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                "OIDC_AUDIENCES": "weather=weather-app,places=places-app,horoscope=horoscope-app", "OIDC_MIN_REFETCH_SECONDS": "0",
                "OIDC_ALLOW_HTTP_LOOPBACK": "true",
            ]) { $1 }
        }
        try await AuthTestHarness.run(extraEnvironment: environment.merging(extraEnvironment) { $1 }) { auth in try await body(auth, users) }
    }
}

/// An account's tokens as auth's routes gave them.
package struct AppSession: Sendable {
    package let id: String
    package let access: String
    package let refresh: String

    package init(_ body: JSONObject) throws {
        id = try #require(body["account.id"]).lowercased()
        access = try #require(body["accessToken"])
        refresh = try #require(body["refreshToken"])
    }
}

extension AuthTestHarness {
    /// A new install account of `app`, as the app gets it on first launch.
    package func install(_ app: String) async throws -> AppSession {
        let (status, body) = try await post("/v1/installs", ["app": app, "installId": "install-\(UUID().uuidString.prefix(8))"])
        #expect(status == .created, "\(body)")
        return try AppSession(body)
    }

    /// Signs `subject` in with an ID token of `app`'s OpenID Connect client.
    package func signIn(_ idp: FakeIdentityProvider, subject: String, app: String) async throws -> AppSession {
        let nonce = UUID().uuidString
        let token = try await idp.idToken(subject: subject, audience: ["\(app)-app"], nonce: nonce)
        let (status, body) = try await post("/v1/horoscope/oidc", ["idToken": token, "nonce": nonce])
        #expect(status == .ok, "\(body)")
        return try AppSession(body)
    }

    /// Merges the install whose refresh token is `install` into the account of `bearer`.
    package func merge(install: AppSession, into bearer: String) async throws -> (HTTPResponse.Status, JSONObject) {
        try await post("/v1/me/merge-install", ["installRefreshToken": install.refresh], bearer: bearer)
    }

    /// `DELETE /v1/me`, with the password or PIN in `json` where the account has one.
    package func deleteOwnAccount(bearer: String, json: [String: String]? = nil) async throws -> (HTTPResponse.Status, JSONObject) {
        try await request(.delete, "/v1/me", body: try json.map { try JSONEncoder().encode($0) }, bearer: bearer)
    }

    /// The account's next session, as the app gets it after a change its token must show (a role, a paid feature).
    package func refreshed(_ session: AppSession) async throws -> AppSession {
        let (status, body) = try await post("/v1/sessions/refresh", ["refreshToken": session.refresh])
        #expect(status == .ok, "\(body)")
        return try AppSession(body)
    }

    /// What refreshing with `token` answers: 200, or 401 once the account ended.
    package func refreshStatus(_ token: String) async throws -> (HTTPResponse.Status, String?) {
        let (status, body) = try await post("/v1/sessions/refresh", ["refreshToken": token])
        return (status, body["error.code"])
    }
}
