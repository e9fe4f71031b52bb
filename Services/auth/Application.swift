import Hummingbird
import Logging
import Prometheus
import Shared

/// Builds auth from its environment: the platform runtime plus accounts, sessions and recovery (U1–U4, U7),
/// the mail sender, and the bootstrap admin. Tests call this same function with test configuration.
func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .auth, environment: environment, migrations: AuthMigrations.all, registry: registry, logger: logger)
    let configuration = try AuthConfiguration(environment: environment)
    let client = runtime.postgres
    let auth = AuthContext(
        configuration: configuration,
        accounts: AccountStore(client: client, logger: runtime.logger),
        attempts: AttemptStore(client: client, logger: runtime.logger),
        sessions: SessionStore(client: client, logger: runtime.logger, lifetime: configuration.refreshTokenLifetime),
        resets: PasswordResetStore(client: client, logger: runtime.logger, lifetime: configuration.resetLinkLifetime),
        pinResets: PinResetStore(client: client, logger: runtime.logger),
        hasher: PasswordHasher(cost: configuration.bcryptCost),
        issuer: try await TokenIssuer(
            signingKey: configuration.signingKey.value, issuer: runtime.configuration.tokenIssuer,
            accessTokenLifetime: configuration.accessTokenLifetime))
    let router = runtime.makeRouter()
    DashboardRoutes(auth: auth).add(to: router, verifier: runtime.tokenVerifier)
    SessionRoutes(auth: auth).add(to: router, verifier: runtime.tokenVerifier)
    SurveyRoutes(auth: auth).add(to: router)
    let admin = AdminStore(client: client, logger: runtime.logger)
    AdminRoutes(admin: admin).add(to: router, verifier: runtime.tokenVerifier)
    PaymentWebhookRoutes(admin: admin, secret: configuration.paymentWebhookSecret).add(to: router)
    HoroscopeRoutes(auth: auth, oidc: configuration.oidc.map { OIDCVerifier(configuration: $0, logger: runtime.logger) })
        .add(to: router)
    router.get("openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: AuthOpenAPI.yaml)))
    }
    let mailSender = MailSender(
        client: client, smtp: SMTPClient(configuration: configuration.smtp), startGate: runtime.startGate, logger: runtime.logger)
    let bootstrap = AdminBootstrap(auth: auth, startGate: runtime.startGate, logger: runtime.logger)
    return runtime.makeApplication(router: router, services: [mailSender, bootstrap])
}
