import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Testing
import UnitTestSupport

@testable import Auth

/// auth's configuration, SMTP capability parsing and the document's closed sets (U2, U5, U6, X3): rules read in
/// process, nothing running.
@Suite("auth: configuration and closed sets")
struct AuthConfigurationTests {
    @Test("U2: SMTP settings are checked at start: credentials need TLS, names and files must be valid")
    func configurationU2() throws {
        let base = ["SMTP_HOST": "smtp.example.com", "SMTP_PORT": "587"]
        let secured = try SMTPConfiguration(
            environment: EnvironmentReader(base.merging(["SMTP_TLS": "starttls", "SMTP_USERNAME": "u", "SMTP_PASSWORD": "p"]) { $1 }))
        #expect(
            secured.security == .startTLS && secured.credentials?.username == "u" && "\(secured.credentials?.password as Any)".contains("redacted"))
        #expect(throws: ConfigError.self) {
            try SMTPConfiguration(environment: EnvironmentReader(base.merging(["SMTP_USERNAME": "u", "SMTP_PASSWORD": "p"]) { $1 }))
        }
        #expect(throws: ConfigError.self) {
            try SMTPConfiguration(environment: EnvironmentReader(base.merging(["SMTP_TLS": "starttls", "SMTP_USERNAME": "u"]) { $1 }))
        }
        #expect(throws: ConfigError.self) { try SMTPConfiguration(environment: EnvironmentReader(["SMTP_TLS": "ssl3"])) }
        #expect(throws: ConfigError.self) { try SMTPConfiguration(environment: EnvironmentReader(["SMTP_TLS_CA_FILE": "/nonexistent/ca.pem"])) }
        #expect(try SMTPConfiguration(environment: EnvironmentReader([:])).security == SMTPConfiguration.Security.none)
    }

    @Test("U2: EHLO replies are read for STARTTLS and every AUTH form servers announce")
    func extensionsU2() {
        let reply = SMTPReply(code: 250, lines: ["smtp.test", "SIZE 1000", "STARTTLS", "AUTH LOGIN PLAIN CRAM-MD5", "AUTH=XOAUTH2"])
        let extensions = SMTPExtensions(ehloReply: reply)
        #expect(extensions.offersStartTLS && extensions.authMechanisms == ["LOGIN", "PLAIN", "CRAM-MD5", "XOAUTH2"])
        #expect(
            SMTPExtensions(ehloReply: SMTPReply(code: 250, lines: ["only a greeting"])) == SMTPExtensions(ehloReply: SMTPReply(code: 250, lines: [])))
    }

    @Test("U6: an access token lives at most an hour, so a revocation reaches token-only checks within it")
    func accessTokenLifetimeBounded() async throws {
        let tokens = try TestTokens()
        let environment = ["AUTH_SIGNING_KEY": tokens.privateKeyBase64URL]
        #expect(
            try AuthConfiguration(environment: EnvironmentReader(environment.merging(["ACCESS_TOKEN_TTL_SECONDS": "3600"]) { $1 }))
                .accessTokenLifetime == 3_600)
        #expect(throws: ConfigError.self) {
            try AuthConfiguration(environment: EnvironmentReader(environment.merging(["ACCESS_TOKEN_TTL_SECONDS": "86400"]) { $1 }))
        }
    }

    @Test("U5: the JWKS URL must be https; plain http only on loopback and only when allowed")
    func jwksOverHTTPSOnly() throws {
        let base = ["AUTH_SIGNING_KEY": try TestTokens().privateKeyBase64URL, "OIDC_ISSUER": "https://idp", "OIDC_AUDIENCE": "app"]
        func configuration(_ extra: [String: String]) throws -> AuthConfiguration {
            try AuthConfiguration(environment: EnvironmentReader(base.merging(extra) { $1 }))
        }
        #expect(try configuration(["OIDC_JWKS_URL": "https://idp.example.com/jwks"]).oidc?.requireNonce == true)
        #expect(throws: ConfigError.self) { try configuration(["OIDC_JWKS_URL": "http://idp.example.com/jwks"]) }
        #expect(throws: ConfigError.self) { try configuration(["OIDC_JWKS_URL": "http://127.0.0.1:9/jwks"]) }
        #expect(throws: ConfigError.self) {
            try configuration(["OIDC_JWKS_URL": "http://idp.example.com/jwks", "OIDC_ALLOW_HTTP_LOOPBACK": "true"])
        }
        #expect(try configuration(["OIDC_JWKS_URL": "http://127.0.0.1:9/jwks", "OIDC_ALLOW_HTTP_LOOPBACK": "true"]).oidc != nil)
    }

    @Test("U11: the mailbox key is its own secret or the one derived before it existed; sent mail is kept 7 days unless told")
    func mailboxKeyAndMailRetention() throws {
        let signingKey = try TestTokens().privateKeyBase64URL
        func configuration(_ extra: [String: String]) throws -> AuthConfiguration {
            try AuthConfiguration(environment: EnvironmentReader(["AUTH_SIGNING_KEY": signingKey].merging(extra) { $1 }))
        }
        #expect(try configuration([:]).mailboxKey.value == "mailbox-keys|\(signingKey)", "mailbox hashes made before still match")
        #expect(try configuration(["AUTH_MAILBOX_KEY": String(repeating: "k", count: 32)]).mailboxKey.value == String(repeating: "k", count: 32))
        #expect(throws: ConfigError.self) { try configuration(["AUTH_MAILBOX_KEY": "short"]) }
        #expect(try configuration([:]).sentMailRetention == .seconds(7 * 86_400))
        #expect(try configuration(["SENT_MAIL_RETENTION_DAYS": "0"]).sentMailRetention == .zero)
        #expect(throws: ConfigError.self) { try configuration(["SENT_MAIL_RETENTION_DAYS": "366"]) }
    }

    @Test("X3: roles, entitlements, account kinds and flow steps in the document are the domain's")
    func closedSetsMatchTheDomain() {
        #expect(Set(Components.Schemas.Role.allCases.map(\.rawValue)) == Set(UserRole.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Entitlement.allCases.map(\.rawValue)) == Set(Entitlement.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.FlowStep.allCases.map(\.rawValue)) == Set(FlowStep.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Account.KindPayload.allCases.map(\.rawValue)) == Set(AccountKind.allCases.map(\.rawValue)))
    }
}
