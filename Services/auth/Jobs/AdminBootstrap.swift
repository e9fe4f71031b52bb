import Logging
import PlatformCore
import ServiceLifecycle

/// Creates the first dashboard admin from `BOOTSTRAP_ADMIN_EMAIL`/`BOOTSTRAP_ADMIN_PASSWORD` once migrations ran,
/// when no account has that email yet ("users will be added previously to database with default password").
struct AdminBootstrap: Service {
    let auth: AuthContext
    let startGate: StartGate
    let logger: Logger

    /// Returns only at shutdown: a service that ends early would stop the whole group.
    func run() async throws {
        if let admin = auth.configuration.bootstrapAdmin, await startGate.waitUnlessShuttingDown() {
            try await createIfMissing(email: admin.email, password: admin.password.value)
        }
        try? await gracefulShutdown()
    }

    private func createIfMissing(email text: String, password: String) async throws {
        guard let email = EmailAddress(text) else {
            logger.error("BOOTSTRAP_ADMIN_EMAIL is not a valid email; no admin created")
            return
        }
        guard try await auth.accounts.credentials(email: email) == nil else { return }
        _ = try await auth.accounts.create(
            email: email, kind: .dashboard, role: .admin, passwordHash: try await auth.hasher.hash(password))
        logger.info("bootstrap admin created", metadata: ["email": "\(email)"])
    }
}
