import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Partners, their availability and ads (B1).
struct PartnerStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// The columns `decode` reads, over `partners p` joined to `accounts acc` on the partner's account.
    static let columns = """
        p.id, p.name, p.description, p.contact, p.photo_url, p.languages, p.time_zone, p.approved, p.fee_status,
        p.availability::text,
        EXISTS (SELECT 1 FROM ads a WHERE a.partner_id = p.id AND a.payment_status = 'paid' AND a.starts_at <= now() AND now() < a.ends_at) AS promoted,
        p.approved AND p.fee_status = 'paid' AND coalesce(acc.role = 'partner' AND NOT acc.banned, false) AS listed, p.fee_marked_by
        """
    static let from = "partners p LEFT JOIN accounts acc ON acc.user_id = p.id::text"

    static func decode(_ rows: PostgresRowSequence) async throws -> [Partner] {
        var partners: [Partner] = []
        for try await (id, name, description, contact, photo, languages, zone, approved, fee, availability, promoted, listed, feeMarkedBy)
            in rows.decode((UUID, String, String, String, String?, [String], String, Bool, String, String, Bool, Bool, String?).self)
        {
            partners.append(
                Partner(
                    id: id, name: name, description: description, contact: contact, photoURL: photo, languages: languages, timeZone: zone,
                    approved: approved,
                    // The table's check allows these three; anything else is read as not paid.
                    feeStatus: PaymentStatus(rawValue: fee) ?? .unpaid, promoted: promoted, listed: listed,
                    availability: StoredAvailability.decode(availability),
                    feeMarkedBy: feeMarkedBy))
        }
        return partners
    }

    func find(_ id: UUID) async throws -> Partner? {
        try await Self.decode(
            client.tracedQuery("SELECT \(unescaped: Self.columns) FROM \(unescaped: Self.from) WHERE p.id = \(id)", logger: logger)
        ).first
    }

    /// Listed partners (or all with `listedOnly` false): promoted first, then by name; one more than `limit` tells there are more.
    func list(listedOnly: Bool, language: String?, limit: Int, offset: Int) async throws -> [Partner] {
        try await Self.decode(
            client.tracedQuery(
                """
                SELECT * FROM (SELECT \(unescaped: Self.columns) FROM \(unescaped: Self.from)) partner
                WHERE (NOT \(listedOnly) OR partner.listed) AND (\(language)::text IS NULL OR \(language) = ANY(partner.languages))
                ORDER BY (CASE WHEN \(listedOnly) THEN partner.promoted ELSE false END) DESC, partner.name, partner.id
                LIMIT \(limit) OFFSET \(offset)
                """, logger: logger))
    }

    func create(_ new: NewPartner) async throws -> PartnerCreation {
        let id = new.id
        let inserted = try await client.inTransaction(logger: logger) { connection -> Bool? in
            let role = try await connection.tracedQuery("SELECT role FROM accounts WHERE user_id = \(AccountKey.of(id))", logger: logger)
            var isPartner = false
            for try await value in role.decode(String.self) { isPartner = value == UserRole.partner.rawValue }
            guard isPartner else { return nil }
            let rows = try await connection.tracedQuery(
                """
                INSERT INTO partners (id, name, description, contact, photo_url, languages, time_zone)
                VALUES (\(id), \(new.name), \(new.description), \(new.contact), \(new.photoURL), \(new.languages), \(new.timeZone))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger)
            return try await rows.collectAll().count == 1
        }
        switch inserted {
        case nil: return .notAPartner
        case false?: return .exists
        case true?:
            guard let partner = try await find(id) else { return .exists }
            return .created(partner)
        }
    }

    /// Applies the fields given; nil when there is no such partner.
    func update(_ id: UUID, _ changes: ProfileChanges) async throws -> Partner? {
        let fee = changes.feeStatus?.rawValue
        // An admin's fee status is an override, and says so.
        let marker = changes.feeStatus.flatMap { PaymentMarker.admin.marking($0) }?.rawValue
        let rows = try await client.tracedQuery(
            """
            UPDATE partners SET name = coalesce(\(changes.name), name), description = coalesce(\(changes.description), description),
                contact = coalesce(\(changes.contact), contact), photo_url = coalesce(\(changes.photoURL), photo_url),
                languages = coalesce(\(changes.languages), languages), time_zone = coalesce(\(changes.timeZone), time_zone),
                approved = coalesce(\(changes.approved), approved), fee_status = coalesce(\(fee), fee_status),
                fee_marked_by = CASE WHEN \(fee)::text IS NULL THEN fee_marked_by ELSE \(marker)::text END
            WHERE id = \(id) RETURNING id
            """, logger: logger)
        guard try await rows.collectAll().count == 1 else { return nil }
        return try await find(id)
    }

    /// Replaces the availability; false when there is no such partner.
    func setAvailability(_ id: UUID, _ availability: Availability) async throws -> Bool {
        let json = try StoredAvailability(availability).json()
        let rows = try await client.tracedQuery(
            "UPDATE partners SET availability = \(json)::jsonb WHERE id = \(id) RETURNING id", logger: logger)
        return try await rows.collectAll().count == 1
    }

    // MARK: Ads

    static let adColumns =
        "id, partner_id, starts_at, ends_at, payment_status, payment_status = 'paid' AND starts_at <= now() AND now() < ends_at, marked_by"

    static func decodeAds(_ rows: PostgresRowSequence) async throws -> [Ad] {
        var ads: [Ad] = []
        for try await (id, partner, start, end, status, active, markedBy) in rows.decode((UUID, UUID, Date, Date, String, Bool, String?).self) {
            ads.append(
                Ad(
                    id: id, partnerId: partner, startsAt: start, endsAt: end, paymentStatus: PaymentStatus(rawValue: status) ?? .unpaid,
                    active: active, markedBy: markedBy))
        }
        return ads
    }

    func addAd(partner: UUID, startsAt: Date, endsAt: Date) async throws -> Ad? {
        try await Self.decodeAds(
            client.tracedQuery(
                """
                INSERT INTO ads (id, partner_id, starts_at, ends_at)
                SELECT \(UUID()), id, \(startsAt), \(endsAt) FROM partners WHERE id = \(partner)
                RETURNING \(unescaped: Self.adColumns)
                """, logger: logger)
        ).first
    }

    func setAdPayment(partner: UUID, ad: UUID, status payment: PaymentStatus) async throws -> Ad? {
        let marker = PaymentMarker.admin.marking(payment)?.rawValue
        return try await Self.decodeAds(
            client.tracedQuery(
                """
                UPDATE ads SET payment_status = \(payment.rawValue), marked_by = \(marker)::text
                WHERE id = \(ad) AND partner_id = \(partner)
                RETURNING \(unescaped: Self.adColumns)
                """, logger: logger)
        ).first
    }

    func ads(of partner: UUID) async throws -> [Ad] {
        try await Self.decodeAds(
            client.tracedQuery(
                "SELECT \(unescaped: Self.adColumns) FROM ads WHERE partner_id = \(partner) ORDER BY starts_at DESC LIMIT 500", logger: logger))
    }
}
