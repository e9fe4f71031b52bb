import Foundation
import PlatformCore
import PlatformHTTP

/// The dashboard's numbers (N2, N5); their operations' `x-access: admin` lets only admins reach them.
extension AnalyticsAPI {
    func getHomeStats(_ input: Operations.GetHomeStats.Input) async throws -> Operations.GetHomeStats.Output {
        _ = try RequestScope.requireRole([.admin])
        let stats = self.stats
        return .ok(.init(body: .json(try await cache.home.value(for: "home") { try await stats.home() })))
    }

    func listDownloads(_ input: Operations.ListDownloads.Input) async throws -> Operations.ListDownloads.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Paging.resolve(page: input.query.page, pageSize: input.query.pageSize)
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let (from, to) = (range?.from, range?.to)
        let (app, platform, stats) = (input.query.app?.rawValue, input.query.platform?.rawValue, self.stats)
        let key = "\(app ?? "")|\(platform ?? "")|\(range?.cacheKey ?? "")|\(paging.size)|\(paging.offset)"
        let found = try await cache.downloads.value(for: key) {
            let page = try await stats.downloads(app: app, platform: platform, from: from, to: to, limit: paging.size, offset: paging.offset)
            return StatsPage(items: page.items, total: page.total)
        }
        return .ok(.init(body: .json(.init(items: found.items, page: paging.page, pageSize: paging.size, total: Int64(found.total)))))
    }

    func listFeatures(_ input: Operations.ListFeatures.Input) async throws -> Operations.ListFeatures.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Paging.resolve(page: input.query.page, pageSize: input.query.pageSize)
        let prefix = RequestText.nonBlank(input.query.prefix)
        if let prefix, RequestText.length(prefix) > 100 { throw JSONBody.schemaViolation(["prefix": "must be at most 100 characters"]) }
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let (app, stats) = (input.query.app?.rawValue, self.stats)
        let key = "\(app ?? "")|\(prefix ?? "")|\(range?.cacheKey ?? "")|\(paging.size)|\(paging.offset)"
        let found = try await cache.features.value(for: key) {
            let page =
                if let range {
                    try await stats.features(app: app, prefix: prefix, range: range, limit: paging.size, offset: paging.offset)
                } else {
                    try await stats.features(app: app, prefix: prefix, limit: paging.size, offset: paging.offset)
                }
            return StatsPage(items: page.items, total: page.total)
        }
        return .ok(.init(body: .json(.init(items: found.items, page: paging.page, pageSize: paging.size, total: Int64(found.total)))))
    }

    func listLocations(_ input: Operations.ListLocations.Input) async throws -> Operations.ListLocations.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Paging.resolve(page: input.query.page, pageSize: input.query.pageSize)
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let stats = self.stats
        let found = try await cache.locations.value(for: "\(range?.cacheKey ?? "")|\(paging.size)|\(paging.offset)") {
            let page =
                if let range {
                    try await stats.locations(range: range, limit: paging.size, offset: paging.offset)
                } else {
                    try await stats.locations(limit: paging.size, offset: paging.offset)
                }
            return StatsPage(items: page.items, total: page.total)
        }
        return .ok(.init(body: .json(.init(items: found.items, page: paging.page, pageSize: paging.size, total: Int64(found.total)))))
    }

    func getSurveyStats(_ input: Operations.GetSurveyStats.Input) async throws -> Operations.GetSurveyStats.Output {
        _ = try RequestScope.requireRole([.admin])
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let stats = self.stats
        return .ok(.init(body: .json(try await cache.survey.value(for: "survey|\(range?.cacheKey ?? "")") { try await stats.survey(range: range) })))
    }

    /// The days `from...to` a table is narrowed to, or none; `from` after `to` is 422 `bad_range`.
    static func dayRange(from: String?, to: String?) throws -> StatsQueries.DayRange? {
        let from = try from.map { try day($0, field: "from") }
        let to = try to.map { try day($0, field: "to") }
        if let from, let to, from > to { throw APIError(.unprocessableContent, code: "bad_range", message: "from is after to") }
        return StatsQueries.DayRange(from: from, to: to)
    }

    /// A day `YYYY-MM-DD` (else 400 naming the field) of the years the aggregates hold, 1970-2200 (else 422).
    static func day(_ text: String, field: String) throws -> String {
        // Digits only and a day of the calendar (no Feb 30): Postgres' date parser would refuse either with a 5xx.
        guard CivilDate.isWellFormed(text) else { throw JSONBody.schemaViolation([field: "must be a day YYYY-MM-DD"]) }
        guard CivilDate(parsing: text) != nil else {
            throw APIError(
                .unprocessableContent, code: "bad_day", message: "\(field) must lie between 1970 and 2200", details: [field: "out of range"])
        }
        return text
    }
}

extension AnalyticsAPI {
    /// The survey's reasons (N4): read fresh each time (an admin's page, not a cached number).
    func listSurveyReasons(_ input: Operations.ListSurveyReasons.Input) async throws -> Operations.ListSurveyReasons.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Paging.resolve(page: input.query.page, pageSize: input.query.pageSize)
        let range = try Self.dayRange(from: input.query.from, to: input.query.to)
        let found = try await stats.surveyReasons(service: input.query.service?.rawValue, range: range, limit: paging.size, offset: paging.offset)
        return .ok(.init(body: .json(.init(items: found.items, page: paging.page, pageSize: paging.size, total: Int64(found.total)))))
    }
}
