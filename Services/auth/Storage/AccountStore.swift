import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Accounts in the auth schema. Every change that other services care about enqueues its event in the same
/// transaction (outbox).
struct AccountStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Where account events go: the catalogue's `auth.users`, or `AUTH_USERS_TOPIC`.
    let usersTopic: String

    /// The columns `decode` reads. `columnsWithoutSecrets` selects NULL for the hashes, for listings.
    static let columns =
        "id, email, kind, role, display_name, entitlements, banned, created_at, password_hash, pin_hash, attested_at, email_verified_at"
    static let columnsWithoutSecrets =
        "id, email, kind, role, display_name, entitlements, banned, created_at, NULL::text, NULL::text, attested_at, email_verified_at"

    func credentials(email: EmailAddress) async throws -> StoredCredentials? {
        try await fetchOne(
            "SELECT \(unescaped: Self.columns) FROM accounts WHERE email = \(email.value)")
    }

    func credentials(id: UUID) async throws -> StoredCredentials? {
        try await fetchOne("SELECT \(unescaped: Self.columns) FROM accounts WHERE id = \(id)")
    }

    private func fetchOne(_ query: PostgresQuery) async throws -> StoredCredentials? {
        try await Self.decode(client.tracedQuery(query, logger: logger)).first
    }

    /// Rows selected with `columns` (or `columnsWithoutSecrets`), as accounts with their hashes.
    static func decode(_ rows: PostgresRowSequence) async throws -> [StoredCredentials] {
        var result: [StoredCredentials] = []
        for try await (id, email, kind, role, name, entitlements, banned, createdAt, passwordHash, pinHash, attestedAt, verifiedAt)
            in rows.decode((UUID, String?, String, String, String?, [String], Bool, Date, String?, String?, Date?, Date?).self)
        {
            let account = Account(
                id: id, email: email, kind: AccountKind(rawValue: kind) ?? .horoscope, role: UserRole(rawValue: role) ?? .user,
                displayName: name, entitlements: Set(entitlements), banned: banned, createdAt: createdAt, attestedAt: attestedAt,
                emailVerifiedAt: verifiedAt)
            result.append(StoredCredentials(account: account, passwordHash: passwordHash, pinHash: pinHash))
        }
        return result
    }

    /// Creates an account and publishes `user.registered`. Returns nil when the email is taken.
    func create(
        email: EmailAddress?, kind: AccountKind, role: UserRole, passwordHash: String? = nil, pinHash: String? = nil
    ) async throws -> Account? {
        try await client.inTransaction(logger: logger) { connection -> Account? in
            try await create(email: email, kind: kind, role: role, passwordHash: passwordHash, pinHash: pinHash, on: connection)
        }
    }

    /// As `create`, inside the caller's transaction (an invitation writes its mail in the same one).
    func create(
        email: EmailAddress?, kind: AccountKind, role: UserRole, passwordHash: String?, pinHash: String?, on connection: PostgresConnection
    ) async throws -> Account? {
        let id = UUID()
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO accounts (id, email, kind, role, password_hash, pin_hash)
            VALUES (\(id), \(email?.value), \(kind.rawValue), \(role.rawValue), \(passwordHash), \(pinHash))
            ON CONFLICT (email) DO NOTHING RETURNING created_at
            """, logger: logger)
        var createdAt: Date?
        for try await created in rows.decode(Date.self) { createdAt = created }
        guard let createdAt else { return nil }
        try await Outbox.enqueue(
            EventEnvelope(
                type: EventTypes.userRegistered, producer: "auth", key: AccountKey.of(id),
                payload: UserRegistered(userId: id, kind: kind, role: role)),
            toTopicNamed: usersTopic, on: connection, logger: logger)
        return Account(
            id: id, email: email?.value, kind: kind, role: role, displayName: nil, entitlements: [], banned: false,
            createdAt: createdAt)
    }

    /// What a user edits of their own account (U9).
    struct Profile: Sendable, Equatable {
        var language: String?
        var timeZone: String?
        var zodiacSign: String?
    }

    func profile(of id: UUID) async throws -> Profile? {
        try await client.tracedQuery(
            "SELECT language, time_zone, zodiac_sign FROM accounts WHERE id = \(id)", logger: logger
        ).decode((String?, String?, String?).self).collectAll().first.map { Profile(language: $0.0, timeZone: $0.1, zodiacSign: $0.2) }
    }

    /// Sets the fields given (nil: unchanged); false for an unknown account.
    func updateProfile(
        of id: UUID, displayName: String?, language: String?, timeZone: String?, zodiacSign: String?
    ) async throws -> Bool {
        try await client.tracedQuery(
            """
            UPDATE accounts SET display_name = coalesce(\(displayName), display_name), language = coalesce(\(language), language),
                time_zone = coalesce(\(timeZone), time_zone), zodiac_sign = coalesce(\(zodiacSign), zodiac_sign)
            WHERE id = \(id) RETURNING id
            """, logger: logger
        ).collectAll().count == 1
    }

    /// An install account of `app` and publishes `user.registered` (kind `install`, with the app).
    func createInstall(app: InstallApp, installId: String) async throws -> Account {
        try await client.inTransaction(logger: logger) { connection -> Account in
            try await createInstall(app: app, installId: installId, attested: false, on: connection)
        }
    }

    /// As `createInstall`, attested; nil when the attestation's token attested an account before.
    func createInstall(app: InstallApp, installId: String, attested: AttestedInstall) async throws -> Account? {
        try await client.inTransaction(logger: logger) { connection -> Account? in
            let fresh = try await connection.tracedQuery(
                """
                WITH expired AS (DELETE FROM used_attestations WHERE usable_until < now())
                INSERT INTO used_attestations (fingerprint, usable_until) VALUES (\(attested.fingerprint), \(attested.usableUntil))
                ON CONFLICT (fingerprint) DO NOTHING RETURNING fingerprint
                """, logger: logger
            ).collectAll()
            guard fresh.count == 1 else { return nil }
            return try await createInstall(app: app, installId: installId, attested: true, on: connection)
        }
    }

    private func createInstall(app: InstallApp, installId: String, attested: Bool, on connection: PostgresConnection) async throws -> Account {
        let id = UUID()
        let row = try await connection.tracedQuery(
            """
            INSERT INTO accounts (id, kind, role, app, install_id, attested_at)
            VALUES (\(id), 'install', 'user', \(app.rawValue), \(installId), CASE WHEN \(attested) THEN now() END)
            RETURNING created_at, attested_at
            """, logger: logger
        ).decode((Date, Date?).self).collectAll().first
        try await Outbox.enqueue(
            EventEnvelope(
                type: EventTypes.userRegistered, producer: "auth", key: AccountKey.of(id),
                payload: UserRegistered(userId: id, kind: .install, role: .user, app: app)),
            toTopicNamed: usersTopic, on: connection, logger: logger)
        return Account(
            id: id, email: nil, kind: .install, role: .user, displayName: nil, entitlements: [], banned: false, createdAt: row?.0 ?? Date(),
            attestedAt: row?.1)
    }

    /// Replaces the password (or PIN) hash and ends every session of the account.
    func setPasswordHash(_ hash: String, for id: UUID) async throws {
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery("UPDATE accounts SET password_hash = \(hash) WHERE id = \(id)", logger: logger)
            try await SessionStore.revokeAll(of: id, on: connection, logger: logger)
        }
    }

    /// Records an ID token's nonce as used until the token expires; false when it was used before (a replay).
    func useNonce(_ nonce: String, issuer: String, until expiry: Date) async throws -> Bool {
        let rows = try await client.tracedQuery(
            """
            WITH expired AS (DELETE FROM used_oidc_nonces WHERE expires_at < now() - interval '1 hour')
            INSERT INTO used_oidc_nonces (nonce_hash, expires_at) VALUES (\(TokenIssuer.hash("\(issuer)|\(nonce)")), \(expiry))
            ON CONFLICT (nonce_hash) DO NOTHING RETURNING nonce_hash
            """, logger: logger)
        return try await rows.collectAll().count == 1
    }

    /// The account of an external identity (`issuer|subject`), made on its first login; `app`: the app whose client signed it in.
    func findOrCreateExternal(subject: String, displayName: String?, app: InstallApp) async throws -> Account {
        let rows = try await client.tracedQuery("SELECT id FROM accounts WHERE external_subject = \(subject)", logger: logger)
        for try await id in rows.decode(UUID.self) {
            if let account = try await credentials(id: id)?.account { return account }
        }
        guard let account = try await create(email: nil, kind: .horoscope, role: .user) else {
            throw NotCreated()
        }
        // A concurrent first login may have linked the subject already: keep that account, drop ours.
        let linked = try await client.tracedQuery(
            """
            UPDATE accounts SET external_subject = \(subject), display_name = \(displayName), app = \(app.rawValue)
            WHERE id = \(account.id) AND NOT EXISTS (SELECT 1 FROM accounts WHERE external_subject = \(subject))
            RETURNING id
            """, logger: logger)
        for try await _ in linked.decode(UUID.self) { return account }
        return try await findOrCreateExternal(subject: subject, displayName: displayName, app: app)
    }

    /// Records a successful login for the analytics (`user.logged-in`).
    func recordLogin(_ account: Account) async throws {
        try await client.inTransaction(logger: logger) { connection in
            try await Outbox.enqueue(
                EventEnvelope(
                    type: EventTypes.userLoggedIn, producer: "auth", key: AccountKey.of(account.id),
                    payload: UserLoggedIn(userId: account.id, kind: account.kind)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
        }
    }

    /// An account for an external identity could not be created (no email to conflict on: not expected).
    struct NotCreated: Error {}
}
