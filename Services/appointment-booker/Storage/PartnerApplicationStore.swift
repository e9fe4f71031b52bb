import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Fortune tellers' applications (B6). Applying publishes `partner.applied` (auth mails its admins); approving
/// makes the profile (approved, its fee still to pay) and publishes `partner.approved` (auth makes the account a
/// partner), each in the transaction that changes the application.
struct PartnerApplicationStore: Sendable {
    let client: PostgresClient
    /// `appointments.partner-applications`.
    let topic: String
    let logger: Logger

    static let columns = """
        user_id, name, description, contact, photo_url, languages, time_zone, terms_version, terms_accepted_at, status, reason,
        applied_at, decided_at
        """

    static func decode(_ rows: PostgresRowSequence) async throws -> [PartnerApplication] {
        var applications: [PartnerApplication] = []
        for try await row in rows.decode(
            (String, String, String, String, String?, [String], String, String, Date, String, String?, Date, Date?).self)
        {
            guard let id = UUID(uuidString: row.0) else { continue }
            applications.append(
                PartnerApplication(
                    userId: id, name: row.1, description: row.2, contact: row.3, photoURL: row.4, languages: row.5, timeZone: row.6,
                    termsVersion: row.7, termsAcceptedAt: row.8, status: PartnerApplication.Status(rawValue: row.9) ?? .pending,
                    reason: row.10, appliedAt: row.11, decidedAt: row.12))
        }
        return applications
    }

    func apply(_ application: PartnerApplication) async throws -> ApplicationFiling {
        let user = AccountKey.of(application.userId)
        return try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                INSERT INTO partner_applications (user_id, name, description, contact, photo_url, languages, time_zone, terms_version,
                    terms_accepted_at)
                VALUES (\(user), \(application.name), \(application.description), \(application.contact), \(application.photoURL),
                    \(application.languages), \(application.timeZone), \(application.termsVersion), now())
                ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, description = excluded.description, contact = excluded.contact,
                    photo_url = excluded.photo_url, languages = excluded.languages, time_zone = excluded.time_zone,
                    terms_version = excluded.terms_version, terms_accepted_at = now(), status = 'pending', reason = NULL,
                    applied_at = now(), decided_at = NULL, decided_by = NULL
                WHERE partner_applications.status = 'rejected'
                RETURNING \(unescaped: Self.columns)
                """, logger: logger)
            guard let applied = try await Self.decode(rows).first else { return .exists }
            try await Outbox.enqueue(
                EventEnvelope(
                    type: EventTypes.partnerApplied, producer: "appointment-booker", key: user,
                    payload: PartnerApplied(userId: application.userId, name: application.name, termsVersion: application.termsVersion)),
                toTopicNamed: topic, on: connection, logger: logger)
            return .applied(applied)
        }
    }

    func find(_ user: UUID) async throws -> PartnerApplication? {
        try await Self.decode(
            client.tracedQuery(
                "SELECT \(unescaped: Self.columns) FROM partner_applications WHERE user_id = \(AccountKey.of(user))", logger: logger)
        ).first
    }

    /// Applications of a status (all with nil), oldest first; one more than `limit` tells there are more.
    func list(status: PartnerApplication.Status?, limit: Int, offset: Int) async throws -> [PartnerApplication] {
        try await Self.decode(
            client.tracedQuery(
                """
                SELECT \(unescaped: Self.columns) FROM partner_applications
                WHERE \(status?.rawValue)::text IS NULL OR status = \(status?.rawValue)
                ORDER BY applied_at, user_id LIMIT \(limit) OFFSET \(offset)
                """, logger: logger))
    }

    func decide(_ user: UUID, approve: Bool, reason: String?, by admin: String) async throws -> ApplicationDecision {
        let key = AccountKey.of(user)
        return try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                UPDATE partner_applications SET status = \(approve ? "approved" : "rejected"), reason = \(reason), decided_at = now(),
                    decided_by = \(admin)
                WHERE user_id = \(key) AND status = 'pending'
                RETURNING \(unescaped: Self.columns)
                """, logger: logger)
            guard let decided = try await Self.decode(rows).first else {
                let exists = try await connection.tracedQuery("SELECT 1 FROM partner_applications WHERE user_id = \(key)", logger: logger)
                    .collectAll()
                return exists.isEmpty ? .notFound : .alreadyDecided
            }
            guard approve else { return .decided(decided) }
            // The profile as applied, approved; listed once its fee is paid and auth's event makes the account a partner.
            try await connection.tracedQuery(
                """
                INSERT INTO partners (id, name, description, contact, photo_url, languages, time_zone, approved)
                VALUES (\(user), \(decided.name), \(decided.description), \(decided.contact), \(decided.photoURL), \(decided.languages),
                    \(decided.timeZone), true)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, contact = excluded.contact,
                    photo_url = excluded.photo_url, languages = excluded.languages, time_zone = excluded.time_zone, approved = true
                """, logger: logger)
            try await Outbox.enqueue(
                EventEnvelope(type: EventTypes.partnerApproved, producer: "appointment-booker", key: key, payload: PartnerApproved(userId: user)),
                toTopicNamed: topic, on: connection, logger: logger)
            return .decided(decided)
        }
    }
}
