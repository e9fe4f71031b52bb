import Foundation
import Hummingbird
import Shared

/// Weather news (A6): admins publish; everyone lists newest first and opens one.
struct NewsRoutes {
    let news: NewsStore
    static let maxNameLength = 200
    static let maxBodyLength = 20_000
    static let maxLocationLength = 200

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        router.get("v1/news", use: list)
        router.get("v1/news/:newsId", use: open)
        router.group("v1/admin/news").add(middleware: AccessTokenMiddleware(verifier: verifier, allowedRoles: [.admin]))
            .post(use: publish)
    }

    @Sendable func list(_ request: Request, context: PlatformRequestContext) async throws -> NewsPageDTO {
        let query = request.uri.queryParameters
        let page = try QueryParameter.integer(query, "page", default: 1, range: 1...10_000)
        let pageSize = try QueryParameter.integer(query, "pageSize", default: 20, range: 1...100)
        let items = try await news.list(limit: pageSize + 1, offset: (page - 1) * pageSize)
        return NewsPageDTO(news: items.prefix(pageSize).map(NewsDTO.init), page: page, pageSize: pageSize, hasMore: items.count > pageSize)
    }

    @Sendable func open(_ request: Request, context: PlatformRequestContext) async throws -> NewsDTO {
        guard let text = context.parameters.get("newsId"), let id = UUID(uuidString: text) else {
            throw APIError.badRequest("invalid_news_id", "the news id must be a UUID")
        }
        guard let item = try await news.find(id) else {
            throw APIError(.notFound, code: "news_not_found", message: "no news item with id \(id)")
        }
        return NewsDTO(item)
    }

    @Sendable func publish(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let admin = try context.requireUser().id
        let body = try await JSONBody.decode(NewsRequest.self, request, context)
        var problems: [String: String] = [:]
        let name = Self.text(body.name, "name", max: Self.maxNameLength, into: &problems)
        let text = Self.text(body.body, "body", max: Self.maxBodyLength, into: &problems)
        let location = Self.text(body.location, "location", max: Self.maxLocationLength, into: &problems)
        let zoneName = body.timeZone ?? "UTC"
        let zone = TimeZone(identifier: zoneName)
        if zone == nil { problems["timeZone"] = "must be an IANA time zone such as Europe/Berlin" }
        var happenedAt: Date?
        if let date = body.date, let time = body.time, let zone {
            happenedAt = Self.date(date, time, in: zone)
            if happenedAt == nil { problems["date"] = "date must be yyyy-MM-dd and time HH:mm (24-hour), a real moment" }
        } else {
            if body.date == nil { problems["date"] = "is required (yyyy-MM-dd)" }
            if body.time == nil { problems["time"] = "is required (HH:mm, 24-hour)" }
        }
        guard problems.isEmpty, let happenedAt else { throw JSONBody.validationError(problems) }
        let item = try await news.publish(
            name: name, body: text, happenedAt: happenedAt, timeZone: zoneName, location: location, by: admin)
        return try JSONResponse.created(NewsDTO(item), location: "/v1/news/\(item.id)")
    }

    private static func text(_ value: String?, _ field: String, max: Int, into problems: inout [String: String]) -> String {
        let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if trimmed.isEmpty { problems[field] = "is required" } else if trimmed.count > max { problems[field] = "must be at most \(max) characters" }
        return trimmed
    }

    /// Parses strictly: `2026-02-30` or `25:00` are refused rather than rolled over.
    static func date(_ date: String, _ time: String, in zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.isLenient = false
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let text = "\(date) \(time)"
        guard let parsed = formatter.date(from: text), formatter.string(from: parsed) == text else { return nil }
        return parsed
    }
}
