import Foundation
import PlatformCore
import PlatformEvents

/// The auth service's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `AUTH_SIGNING_KEY` | **required**: Ed25519 private key, base64url (from `platformctl generate-keys`) |
/// | `AUTH_MAILBOX_KEY` | none: a key derived from `AUTH_SIGNING_KEY`. The HMAC-SHA256 key of the mailbox hash analytics keeps to give one hotel-survey coupon per mailbox, also after the account is deleted; set it (at least 32 characters) so that rotating the signing key does not make every mailbox new |
/// | `ACCESS_TOKEN_TTL_SECONDS` | `900` (30 to 3600: a revocation reaches token-only checks within it) |
/// | `REFRESH_TOKEN_TTL_SECONDS` | `2592000` (30 days) |
/// | `BCRYPT_COST` | `12` |
/// | `BCRYPT_MAX_CONCURRENCY`, `BCRYPT_MAX_QUEUE` | `2`, `32`: password/PIN checks running and waiting; beyond them 429 `busy` |
/// | `LOCKOUT_MAX_FAILURES`, `LOCKOUT_WINDOW_SECONDS` | `5`, `900` (per account and client address) |
/// | `ACCOUNT_MAX_FAILURES` | `30` (wrong dashboard passwords per account from all addresses, in the same window) |
/// | `SURVEY_PIN_ACCOUNT_MAX_FAILURES` | `10` (wrong survey PINs per account from all addresses a day) |
/// | `CODE_CHECKS_PER_HOUR` | `1000`: wrong forgot-PIN codes an hour from everyone together; past it 429 |
/// | `ADDRESS_MAX_FAILURES` | `50` per client address per window |
/// | `RECOVERY_MAILS_PER_ACCOUNT`, `RECOVERY_MAILS_PER_ADDRESS` | `5`, `20` per hour: reset links and PIN codes mailed |
/// | `SIGNUPS_PER_ADDRESS` | `20` per hour: survey sign-ups (each costs a bcrypt hash) |
/// | `GUESTS_PER_ADDRESS` | `20` per hour: horoscope guest sessions (each a new account) |
/// | `AUTH_RESET_URL` (or its older name `RESET_LINK_BASE_URL`) | `http://127.0.0.1:8085/dashboard/reset-password`: the dashboard's reset page the mail links to |
/// | `DASHBOARD_ORIGINS` | `http://127.0.0.1:8085,http://localhost:8085`: origins of the admin dashboard's page, allowed by CORS |
/// | `RESET_LINK_TTL_SECONDS` | `86400` (24 h, D22) |
/// | `SMTP_HOST`, `SMTP_PORT`, `SMTP_FROM` | `127.0.0.1`, `25`, `no-reply@localhost` |
/// | `INSTALL_IDLE_DAYS` | `30` (1-3650): an install account that did nothing since it was made (its one session never renewed and run out, not attested, no payment) is deleted once this old |
/// | `SENT_MAIL_RETENTION_DAYS` | `7` (0-365): sent and given-up mail (its address and subject) is purged after this; a deleted account's at once |
/// | `SMTP_TLS` | `none`: `starttls` (upgrade, refuse a server without it; port 587) or `tls` (TLS from the start; port 465) |
/// | `SMTP_TLS_CA_FILE` | none: the system's roots; a PEM file of the CA that signed the server's certificate |
/// | `SMTP_USERNAME`, `SMTP_PASSWORD` | none: `AUTH PLAIN` or `AUTH LOGIN` when set (both together, only with `SMTP_TLS`) |
/// | `PAYMENT_WEBHOOK_SECRET` | none: the payment webhook answers 503 until it is set |
/// | `OIDC_JWKS_URL`, `OIDC_ISSUER`, `OIDC_AUDIENCES` | none: ID-token login answers 503 until set (all three together; the JWKS over https). `OIDC_AUDIENCES`: one OpenID Connect client per app, `weather=CLIENT_ID,places=CLIENT_ID,horoscope=CLIENT_ID` |
/// | `OIDC_AUDIENCE` | none: the horoscope app's client id alone, when `OIDC_AUDIENCES` is not set |
/// | `INSTALLS_PER_ADDRESS` | `20`: install accounts an hour per client address (an IPv6 address's /64) |
/// | `INSTALLS_PER_NETWORK`, `INSTALLS_PER_SITE` | `200`, `1000`: install and guest accounts an hour per IPv4 /24 or IPv6 /56, and per IPv6 /48 |
/// | `INSTALL_TRUST_AFTER_HOURS` | `72` (0-8760): from this age an install account is trusted (its tokens' `trusted` claim) with what costs others, attested or not (`InstallTrust`); 0 trusts every install at once |
/// | `INSTALL_DELETIONS_PER_ADDRESS` | `20`: install accounts deleted by their owner an hour per client address (each leaves every service an event and a row); past it 429 |
/// | `OIDC_REQUIRE_NONCE` | `true`: the app sends the nonce of its authentication request, the token must carry it, once |
/// | `OIDC_ALLOW_HTTP_LOOPBACK` | `false`: a JWKS URL on http://127.0.0.1 is accepted only with this (tests) |
/// | `OIDC_MIN_REFETCH_SECONDS` | `30` (0-3600): a token under an unknown key refetches the key set at most this often |
/// | `AUTH_USERS_TOPIC` | the catalogue's `auth.users`: where account events are published (tests use topics of their own) |
/// | `AUTH_PARTNER_APPLICATIONS_TOPIC` | the catalogue's `appointments.partner-applications`: fortune tellers' applications, mailed to admins; approvals make partners (B6) |
/// | `BOOTSTRAP_ADMIN_EMAIL`, `BOOTSTRAP_ADMIN_PASSWORD` | none: when both are set, that admin is created at start if missing |
struct AuthConfiguration: Sendable {
    var signingKey: Secret
    /// Keys the mailbox hash of `user.email-verified` (`AUTH_MAILBOX_KEY`, or one derived from the signing key).
    var mailboxKey: Secret
    var accessTokenLifetime: TimeInterval
    var refreshTokenLifetime: TimeInterval
    var bcryptCost: UInt8
    var bcryptMaxConcurrency: Int
    var bcryptMaxQueue: Int
    var accountLimit: AttemptLimit
    var accountCeiling: AttemptLimit
    var pinAccountCeiling: AttemptLimit
    var codeChecks: AttemptLimit
    var addressLimit: AttemptLimit
    /// Recovery mails (reset links, PIN codes) per account and per client address: the queue cannot be flooded.
    var recoveryMailsPerAccount: AttemptLimit
    var recoveryMailsPerAddress: AttemptLimit
    var signUpsPerAddress: AttemptLimit
    var guestsPerAddress: AttemptLimit
    /// Install accounts per client address; install and guest accounts per network and per IPv6 site.
    var installsPerAddress: AttemptLimit
    var installsPerNetwork: AttemptLimit
    var installsPerSite: AttemptLimit
    /// Install accounts deleted per client address: a deletion needs only the install's token.
    var installDeletionsPerAddress: AttemptLimit
    /// Which accounts get the `trusted` claim (`INSTALL_TRUST_AFTER_HOURS`).
    var installTrust: InstallTrust
    /// Where Android installs' attestations are checked; nil: an attestation is answered 503.
    var playIntegrity: PlayIntegrityConfiguration?
    var appAttest: AppAttestConfiguration?
    /// Browser origins whose pages call this API (the admin dashboard's, N5): CORS is answered for them only.
    var dashboardOrigins: [String]
    var usersTopic: String
    /// Where appointment-booker's fortune-teller applications come from (B6).
    var partnerApplicationsTopic: String
    var resetLinkBaseURL: String
    var resetLinkLifetime: TimeInterval
    var smtp: SMTPConfiguration
    var sentMailRetention: Duration
    /// Days after which an install account that did nothing is deleted (`IdleInstallExpiry`).
    var installIdleDays: Int
    var bootstrapAdmin: (email: String, password: Secret)?
    var paymentWebhookSecret: Secret?
    var oidc: OIDCVerifier.Configuration?

    init(environment: EnvironmentReader) throws(ConfigError) {
        signingKey = Secret(try environment.requiredString("AUTH_SIGNING_KEY"))
        // The derived key is the one mailbox hashes were made with before the setting existed: they still match.
        mailboxKey = Secret(try environment.secret("AUTH_MAILBOX_KEY") ?? "mailbox-keys|\(signingKey.value)")
        usersTopic = environment.string("AUTH_USERS_TOPIC", default: TopicCatalogue.users.name)
        partnerApplicationsTopic = environment.string("AUTH_PARTNER_APPLICATIONS_TOPIC", default: TopicCatalogue.partnerApplications.name)
        // At most an hour (`AccessTokenLifetime.maximum`, which every service holds tokens to): an access token's
        // entitlements and role stand until it expires, so its lifetime is how long a refund or a ban can take to
        // reach a service that reads only the token.
        accessTokenLifetime = TimeInterval(
            try environment.int("ACCESS_TOKEN_TTL_SECONDS", default: 900, range: 30...Int(AccessTokenLifetime.maximum)))
        refreshTokenLifetime = TimeInterval(
            try environment.int("REFRESH_TOKEN_TTL_SECONDS", default: 2_592_000, range: 60...31_536_000))
        bcryptCost = UInt8(try environment.int("BCRYPT_COST", default: 12, range: 4...16))
        bcryptMaxConcurrency = try environment.int("BCRYPT_MAX_CONCURRENCY", default: 2, range: 1...64)
        bcryptMaxQueue = try environment.int("BCRYPT_MAX_QUEUE", default: 32, range: 0...10_000)
        let window = TimeInterval(try environment.int("LOCKOUT_WINDOW_SECONDS", default: 900, range: 1...86_400))
        accountLimit = AttemptLimit(maxFailures: try environment.int("LOCKOUT_MAX_FAILURES", default: 5, range: 1...1_000), window: window)
        accountCeiling = AttemptLimit(maxFailures: try environment.int("ACCOUNT_MAX_FAILURES", default: 30, range: 1...100_000), window: window)
        // Survey PINs are 4 characters and their seed limit is 3 wrong a day: the ceiling across addresses is a
        // day's too, or many addresses together could guess hundreds a day.
        pinAccountCeiling = AttemptLimit(
            maxFailures: try environment.int("SURVEY_PIN_ACCOUNT_MAX_FAILURES", default: 10, range: 1...100_000), window: 86_400)
        codeChecks = AttemptLimit(maxFailures: try environment.int("CODE_CHECKS_PER_HOUR", default: 1_000, range: 1...1_000_000), window: 3_600)
        addressLimit = AttemptLimit(maxFailures: try environment.int("ADDRESS_MAX_FAILURES", default: 50, range: 1...100_000), window: window)
        recoveryMailsPerAccount = AttemptLimit(
            maxFailures: try environment.int("RECOVERY_MAILS_PER_ACCOUNT", default: 5, range: 1...1_000), window: 3_600)
        recoveryMailsPerAddress = AttemptLimit(
            maxFailures: try environment.int("RECOVERY_MAILS_PER_ADDRESS", default: 20, range: 1...100_000), window: 3_600)
        signUpsPerAddress = AttemptLimit(maxFailures: try environment.int("SIGNUPS_PER_ADDRESS", default: 20, range: 1...100_000), window: 3_600)
        guestsPerAddress = AttemptLimit(maxFailures: try environment.int("GUESTS_PER_ADDRESS", default: 20, range: 1...100_000), window: 3_600)
        installsPerAddress = AttemptLimit(maxFailures: try environment.int("INSTALLS_PER_ADDRESS", default: 20, range: 1...100_000), window: 3_600)
        installsPerNetwork = AttemptLimit(
            maxFailures: try environment.int("INSTALLS_PER_NETWORK", default: 200, range: 1...1_000_000), window: 3_600)
        installsPerSite = AttemptLimit(maxFailures: try environment.int("INSTALLS_PER_SITE", default: 1_000, range: 1...1_000_000), window: 3_600)
        installDeletionsPerAddress = AttemptLimit(
            maxFailures: try environment.int("INSTALL_DELETIONS_PER_ADDRESS", default: 20, range: 1...100_000), window: 3_600)
        installTrust = InstallTrust(after: TimeInterval(3_600 * (try environment.int("INSTALL_TRUST_AFTER_HOURS", default: 72, range: 0...8_760))))
        playIntegrity = try PlayIntegrityConfiguration(environment: environment)
        appAttest = try AppAttestConfiguration(environment: environment)
        resetLinkBaseURL =
            environment.string("AUTH_RESET_URL")
            ?? environment.string("RESET_LINK_BASE_URL", default: "http://127.0.0.1:8085/dashboard/reset-password")
        dashboardOrigins = environment.string("DASHBOARD_ORIGINS", default: "http://127.0.0.1:8085,http://localhost:8085")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        resetLinkLifetime = TimeInterval(try environment.int("RESET_LINK_TTL_SECONDS", default: 86_400, range: 60...604_800))
        smtp = try SMTPConfiguration(environment: environment)
        sentMailRetention = .seconds(86_400 * (try environment.int("SENT_MAIL_RETENTION_DAYS", default: 7, range: 0...365)))
        installIdleDays = try environment.int("INSTALL_IDLE_DAYS", default: 30, range: 1...3_650)
        paymentWebhookSecret = try environment.secret("PAYMENT_WEBHOOK_SECRET").map(Secret.init)
        // Keys come over https only: a JWKS fetched in the clear lets anyone on the path mint logins. Plain http
        // is allowed for a provider on this machine's loopback when OIDC_ALLOW_HTTP_LOOPBACK says so (tests).
        let httpLoopback = try environment.bool("OIDC_ALLOW_HTTP_LOOPBACK", default: false)
        if let jwks = try environment.parsed(
            "OIDC_JWKS_URL", expected: "an https URL (http only for loopback with OIDC_ALLOW_HTTP_LOOPBACK)",
            { text in
                URL(string: text).flatMap { url in
                    url.scheme == "https"
                        || (httpLoopback && url.scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host ?? ""))
                        ? url : nil
                }
            })
        {
            oidc = OIDCVerifier.Configuration(
                jwksURL: jwks, issuer: try environment.requiredString("OIDC_ISSUER"),
                audiences: try Self.oidcAudiences(environment),
                requireNonce: try environment.bool("OIDC_REQUIRE_NONCE", default: true),
                minimumRefetchInterval: TimeInterval(try environment.int("OIDC_MIN_REFETCH_SECONDS", default: 30, range: 0...3_600)))
        }
        if let email = environment.string("BOOTSTRAP_ADMIN_EMAIL") {
            bootstrapAdmin = (email, Secret(try environment.requiredString("BOOTSTRAP_ADMIN_PASSWORD")))
        }
    }
}

/// Where password-reset and PIN mail goes out, and how the connection is secured.
struct SMTPConfiguration: Sendable {
    var host: String
    var port: Int
    var from: String
    var security: Security = .none
    /// A PEM file of the CA that signed the server's certificate; nil trusts the system's roots.
    var caFile: String?
    var credentials: Credentials?

    enum Security: String, Sendable {
        /// Plain SMTP: a relay on the same host or network (the local stack's mail sink).
        case none
        /// Plain connect, then `STARTTLS` before anything else (submission, port 587).
        case startTLS = "starttls"
        /// TLS from the first byte (submissions, port 465).
        case tls
    }

    struct Credentials: Sendable {
        var username: String
        var password: Secret
    }

    init(host: String, port: Int, from: String, security: Security = .none, caFile: String? = nil, credentials: Credentials? = nil) {
        (self.host, self.port, self.from, self.security, self.caFile, self.credentials) = (host, port, from, security, caFile, credentials)
    }

    init(environment: EnvironmentReader) throws(ConfigError) {
        host = environment.string("SMTP_HOST", default: "127.0.0.1")
        port = try environment.int("SMTP_PORT", default: 25, range: 1...65_535)
        from = environment.string("SMTP_FROM", default: "no-reply@localhost")
        security = try environment.parsed("SMTP_TLS", expected: "none, starttls or tls") { Security(rawValue: $0.lowercased()) } ?? .none
        caFile = try environment.parsed("SMTP_TLS_CA_FILE", expected: "a readable PEM file") { path in
            FileManager.default.isReadableFile(atPath: path) ? path : nil
        }
        if let username = environment.string("SMTP_USERNAME") {
            credentials = Credentials(username: username, password: Secret(try environment.requiredString("SMTP_PASSWORD")))
            // Credentials never cross the network in the clear.
            guard security != .none else {
                throw .malformed(variable: "SMTP_TLS", value: "none", expected: "starttls or tls when SMTP_USERNAME is set")
            }
        }
    }
}

extension AuthConfiguration {
    /// Each app's OpenID Connect client id (U8), from `OIDC_AUDIENCES`, or `OIDC_AUDIENCE` as the horoscope app's.
    static func oidcAudiences(_ environment: EnvironmentReader) throws(ConfigError) -> [String: InstallApp] {
        if let audiences = try environment.parsed(
            "OIDC_AUDIENCES", expected: "app=client id pairs, comma-separated, with apps weather, places, horoscope",
            { (text: String) -> [String: InstallApp]? in
                var byClient: [String: InstallApp] = [:]
                for pair in text.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, let app = InstallApp(rawValue: parts[0]), !parts[1].isEmpty, byClient[parts[1]] == nil
                    else { return nil }
                    byClient[parts[1]] = app
                }
                return byClient.isEmpty ? nil : byClient
            })
        {
            return audiences
        }
        return [try environment.requiredString("OIDC_AUDIENCE"): .horoscope]
    }
}
