import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformRuntime
import Prometheus

/// Builds auth from its environment: the platform runtime plus accounts, sessions and recovery (U1–U4, U7),
/// the mail sender, and the bootstrap admin. Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .auth, environment: environment, migrations: AuthMigrations.all, registry: registry, logger: logger)
    let configuration = try AuthConfiguration(environment: environment)
    let client = runtime.postgres
    let sealer = MailSealer(signingKey: configuration.signingKey.value)
    let mail = MailQueue(sealer: sealer)
    let auth = AuthContext(
        configuration: configuration,
        accounts: AccountStore(client: client, logger: runtime.logger, usersTopic: configuration.usersTopic),
        attempts: AttemptStore(client: client, logger: runtime.logger),
        sessions: SessionStore(client: client, logger: runtime.logger, lifetime: configuration.refreshTokenLifetime),
        resets: PasswordResetStore(
            client: client, logger: runtime.logger, lifetime: configuration.resetLinkLifetime, mail: mail),
        pinResets: PinResetStore(
            client: client, logger: runtime.logger, signingKey: configuration.signingKey.value, mail: mail),
        emailVerifications: EmailVerificationStore(
            client: client, logger: runtime.logger, usersTopic: configuration.usersTopic, signingKey: configuration.signingKey.value,
            mailboxKey: configuration.mailboxKey.value, mail: mail),
        hasher: PasswordHasher(
            cost: configuration.bcryptCost, maxConcurrent: configuration.bcryptMaxConcurrency, maxQueued: configuration.bcryptMaxQueue),
        issuer: try await TokenIssuer(
            signingKey: configuration.signingKey.value, issuer: runtime.configuration.tokenIssuer,
            accessTokenLifetime: configuration.accessTokenLifetime, trust: configuration.installTrust),
        // Android installs' attestations (Play Integrity, over the shared HTTP client: nothing to shut down) and iOS
        // installs' (App Attest, checked here).
        attestations: configuration.playIntegrity == nil && configuration.appAttest == nil
            ? nil
            : InstallAttesters(
                playIntegrity: configuration.playIntegrity.map {
                    PlayIntegrityClient(
                        http: ProviderHTTPClient(
                            provider: "play-integrity", policy: $0.http, http: .shared, userAgent: "mobile-backend-platform auth",
                            logger: runtime.logger),
                        configuration: $0, logger: runtime.logger)
                },
                appAttest: configuration.appAttest.map { AppAttestVerifier(configuration: $0, logger: runtime.logger) }))
    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document, corsOrigins: configuration.dashboardOrigins)
    // Only the signed-in and admin operations read the Authorization header: a stale token sent to login or
    // refresh must not turn them into a 401. The webhook's signature is checked on the raw body first.
    let verifier = runtime.tokenVerifier
    let admin = AdminStore(client: client, logger: runtime.logger, usersTopic: configuration.usersTopic)
    let ends = AccountEndStore(client: client, logger: runtime.logger, usersTopic: configuration.usersTopic, admin: admin, erased: verifier.erased)
    try AuthAPI(
        auth: auth, admin: admin, ends: ends,
        oidc: configuration.oidc.map { OIDCVerifier(configuration: $0, logger: runtime.logger) }
    )
    .registerHandlers(
        on: runtime.apiRoutes(
            on: router,
            first: [
                // The token is read on the operations that need one only: a stale token sent to login or refresh is not
                // a 401.
                OperationFilteredMiddleware(access, OperationAccess.signedInRules, AccessTokenMiddleware(verifier: verifier)),
                OperationAccessMiddleware(access),
                OperationFilteredMiddleware(access, [.signature], PaymentSignatureMiddleware(secret: configuration.paymentWebhookSecret)),
                EmptyDeleteBodyMiddleware(),
            ]))
    let mailSender = MailSender(
        client: client, smtp: try SMTPClient(configuration: configuration.smtp), sealer: sealer, startGate: runtime.startGate,
        logger: runtime.logger, retention: configuration.sentMailRetention)
    let bootstrap = AdminBootstrap(auth: auth, startGate: runtime.startGate, logger: runtime.logger)
    let idleInstalls = IdleInstallExpiry(
        idle: IdleInstalls(client: client, logger: runtime.logger), ends: ends, idleDays: configuration.installIdleDays,
        startGate: runtime.startGate, logger: runtime.logger)
    let guests = GuestUpgrade(admin: admin)
    // Fortune tellers' applications from appointment-booker (B6): admins are mailed, approvals make partners.
    let applications = try runtime.makeConsumer(
        topics: [ConsumedTopic(TopicCatalogue.partnerApplications, name: configuration.partnerApplicationsTopic)],
        handler: PartnerApplicationsHandler(mail: mail, usersTopic: configuration.usersTopic))
    return runtime.makeApplication(
        router: router, consumers: [applications], services: [mailSender, bootstrap, idleInstalls],
        startupTasks: [{ _, logger in try await guests.run(logger: logger) }])
}
