import Foundation
import Logging
import PostgresNIO

/// The prayer book (B4): chants in Thai and English with an optional media URL, managed by admins.
struct PrayerStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    typealias Prayer = AppointmentBooker.Prayer

    static let columns = "id, title_en, title_th, text_en, text_th, media_url"

    static func decode(_ rows: PostgresRowSequence) async throws -> [Prayer] {
        var prayers: [Prayer] = []
        for try await (id, titleEn, titleTh, textEn, textTh, media) in rows.decode((UUID, String, String, String, String, String?).self) {
            prayers.append(Prayer(id: id, title: .init(en: titleEn, th: titleTh), text: .init(en: textEn, th: textTh), mediaURL: media))
        }
        return prayers
    }

    func list(limit: Int, offset: Int) async throws -> [Prayer] {
        try await Self.decode(
            client.tracedQuery(
                "SELECT \(unescaped: Self.columns) FROM prayers ORDER BY created_at, id LIMIT \(limit) OFFSET \(offset)", logger: logger))
    }

    func find(_ id: UUID) async throws -> Prayer? {
        try await Self.decode(client.tracedQuery("SELECT \(unescaped: Self.columns) FROM prayers WHERE id = \(id)", logger: logger)).first
    }

    func add(title: Localized, text: Localized, mediaURL: String?) async throws -> Prayer? {
        try await Self.decode(
            client.tracedQuery(
                """
                INSERT INTO prayers (id, title_en, title_th, text_en, text_th, media_url)
                VALUES (\(UUID()), \(title.en), \(title.th), \(text.en), \(text.th), \(mediaURL))
                RETURNING \(unescaped: Self.columns)
                """, logger: logger)
        ).first
    }

    func update(_ id: UUID, titleEn: String?, titleTh: String?, textEn: String?, textTh: String?, mediaURL: String?) async throws -> Prayer? {
        try await Self.decode(
            client.tracedQuery(
                """
                UPDATE prayers SET title_en = coalesce(\(titleEn), title_en), title_th = coalesce(\(titleTh), title_th),
                    text_en = coalesce(\(textEn), text_en), text_th = coalesce(\(textTh), text_th), media_url = coalesce(\(mediaURL), media_url)
                WHERE id = \(id) RETURNING \(unescaped: Self.columns)
                """, logger: logger)
        ).first
    }

    func remove(_ id: UUID) async throws -> Bool {
        try await client.tracedQuery("DELETE FROM prayers WHERE id = \(id) RETURNING id", logger: logger).collectAll().count == 1
    }
}
