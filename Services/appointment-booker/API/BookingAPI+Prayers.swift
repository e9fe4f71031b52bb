import Foundation
import PlatformCore
import PlatformHTTP

/// The prayer book (B4): free to read, in the caller's language; admins add, edit and remove prayers.
extension BookingAPI {
    func listPrayers(_ input: Operations.ListPrayers.Input) async throws -> Operations.ListPrayers.Output {
        let language = Language(acceptLanguage: input.headers.acceptLanguage)
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await prayers.list(limit: paging.size + 1, offset: paging.offset)
        return .ok(
            .init(
                body: .json(
                    .init(
                        prayers: found.prefix(paging.size).map { .init($0, language: language) }, page: paging.page, pageSize: paging.size,
                        hasMore: found.count > paging.size))))
    }

    func getPrayer(_ input: Operations.GetPrayer.Input) async throws -> Operations.GetPrayer.Output {
        guard let prayer = try await prayers.find(try Self.uuid(input.path.prayerId, field: "prayerId")) else {
            throw APIError.notFound("no prayer with this id")
        }
        return .ok(.init(body: .json(.init(prayer, language: Language(acceptLanguage: input.headers.acceptLanguage)))))
    }

    func addPrayer(_ input: Operations.AddPrayer.Input) async throws -> Operations.AddPrayer.Output {
        _ = try RequestScope.requireRole([.admin])
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let fields = try Self.prayerFields(
            titleEn: body.titleEn, titleTh: body.titleTh, textEn: body.textEn, textTh: body.textTh, mediaURL: body.mediaUrl)
        let prayer = try await AddPrayer(prayers: prayers)(
            title: .init(en: fields.titleEn ?? "", th: fields.titleTh ?? ""), text: .init(en: fields.textEn ?? "", th: fields.textTh ?? ""),
            mediaURL: fields.mediaURL)
        return .created(.init(body: .json(.init(prayer, language: .english))))
    }

    func updatePrayer(_ input: Operations.UpdatePrayer.Input) async throws -> Operations.UpdatePrayer.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.prayerId, field: "prayerId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let fields = try Self.prayerFields(
            titleEn: body.titleEn, titleTh: body.titleTh, textEn: body.textEn, textTh: body.textTh, mediaURL: body.mediaUrl)
        let edit = PrayerEdit(
            titleEn: fields.titleEn, titleTh: fields.titleTh, textEn: fields.textEn, textTh: fields.textTh, mediaURL: fields.mediaURL)
        let prayer = try await EditPrayer(prayers: prayers)(id, with: edit)
        return .ok(.init(body: .json(.init(prayer, language: .english))))
    }

    func removePrayer(_ input: Operations.RemovePrayer.Input) async throws -> Operations.RemovePrayer.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.prayerId, field: "prayerId")
        try await RemovePrayer(prayers: prayers)(id)
        return .noContent(.init())
    }

    /// Lengths as the document states them (400), NUL dropped, the media URL https.
    static func prayerFields(
        titleEn: String?, titleTh: String?, textEn: String?, textTh: String?, mediaURL: String?
    ) throws -> (titleEn: String?, titleTh: String?, textEn: String?, textTh: String?, mediaURL: String?) {
        var problems: [String: String] = [:]
        for (field, value, limit) in [("titleEn", titleEn, 200), ("titleTh", titleTh, 200), ("textEn", textEn, 20_000), ("textTh", textTh, 20_000)] {
            if let value, !(1...limit).contains(RequestText.length(value)) { problems[field] = "must be 1 to \(limit) characters" }
        }
        if let mediaURL, let problem = HTTPSURLField.problem(mediaURL) { problems["mediaUrl"] = problem }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        let clean = { (text: String?) in text.map(RequestText.withoutNUL) }
        return (clean(titleEn), clean(titleTh), clean(textEn), clean(textTh), clean(mediaURL))
    }
}
