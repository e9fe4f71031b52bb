import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// The dashboard's numbers (N2), read from the current generation of the aggregates.
struct StatsQueries: Sendable {
    let client: PostgresClient
    let exactUsersLimit: Int
    let logger: Logger

    typealias Schemas = Components.Schemas

    /// Runs `body` in one read-only REPEATABLE READ transaction: a page's several queries see one moment, and
    /// a generation switch (whose old rows are deleted afterwards) never shows half a page.
    func snapshot<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return try await body(connection)
        }
    }

    func home() async throws -> Schemas.HomeStats {
        try await snapshot { connection in try await home(on: connection) }
    }

    func home(on connection: PostgresConnection) async throws -> Schemas.HomeStats {
        let generation = try await Generations.current(on: connection, logger: logger)
        let byApp = try await counts(
            "SELECT app, sum(downloads)::bigint FROM downloads_daily WHERE generation = $1 GROUP BY app ORDER BY 2 DESC, 1", generation,
            on: connection)
        let byPlatform = try await counts(
            "SELECT platform, sum(downloads)::bigint FROM downloads_daily WHERE generation = $1 GROUP BY platform ORDER BY 2 DESC, 1",
            generation, on: connection)
        return .init(
            downloads: .init(total: byApp.reduce(0) { $0 + $1.count }, byApp: byApp, byPlatform: byPlatform),
            topFeatures: try await features(app: nil, prefix: nil, limit: 5, offset: 0, generation: generation, withTotal: false, on: connection)
                .items,
            poll: try await poll(generation: generation, on: connection),
            topLocations: try await locations(limit: 5, offset: 0, generation: generation, withTotal: false, on: connection).items,
            survey: try await survey(generation: generation, on: connection))
    }

    func downloads(
        app: String?, platform: String?, from: String?, to: String?, limit: Int, offset: Int
    ) async throws -> (
        items: [Schemas.DownloadPage.ItemsPayloadPayload], total: Int
    ) {
        try await snapshot { connection in
            try await downloads(app: app, platform: platform, from: from, to: to, limit: limit, offset: offset, on: connection)
        }
    }

    private func downloads(
        app: String?, platform: String?, from: String?, to: String?, limit: Int, offset: Int, on connection: PostgresConnection
    ) async throws -> (items: [Schemas.DownloadPage.ItemsPayloadPayload], total: Int) {
        let generation = try await Generations.current(on: connection, logger: logger)
        let filter: PostgresQuery = """
            SELECT to_char(day, 'YYYY-MM-DD'), app, platform, downloads, count(*) OVER ()::bigint FROM downloads_daily
            WHERE generation = \(generation) AND (\(app)::text IS NULL OR app = \(app)) AND (\(platform)::text IS NULL OR platform = \(platform))
              AND (\(from)::date IS NULL OR day >= \(from)::date) AND (\(to)::date IS NULL OR day <= \(to)::date)
            ORDER BY day DESC, app, platform LIMIT \(limit) OFFSET \(offset)
            """
        let rows = try await connection.tracedQuery(filter, logger: logger)
        var items: [Schemas.DownloadPage.ItemsPayloadPayload] = []
        var total = 0
        for try await (day, app, platform, count, all) in rows.decode((String, String, String, Int, Int).self) {
            // Rows come only from validated events: an unknown app or platform cannot be stored, but would be skipped.
            guard let app = Schemas.App(rawValue: app), let platform = Schemas.Platform(rawValue: platform) else { continue }
            items.append(.init(day: day, app: app, platform: platform, count: Int64(count)))
            total = all
        }
        if items.isEmpty, offset > 0 {
            total = try await downloadRowCount(app: app, platform: platform, from: from, to: to, generation: generation, on: connection)
        }
        return (items, total)
    }

    private func downloadRowCount(
        app: String?, platform: String?, from: String?, to: String?, generation: Int, on connection: PostgresConnection
    ) async throws -> Int {
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*)::bigint FROM downloads_daily
            WHERE generation = \(generation) AND (\(app)::text IS NULL OR app = \(app)) AND (\(platform)::text IS NULL OR platform = \(platform))
              AND (\(from)::date IS NULL OR day >= \(from)::date) AND (\(to)::date IS NULL OR day <= \(to)::date)
            """, logger: logger)
        return try await rows.decode(Int.self).collectAll().first ?? 0
    }

    /// Features by distinct users (then name), ranked among all features of the app (or all apps); a prefix
    /// narrows the list but keeps each feature's overall rank.
    func features(app: String?, prefix: String?, limit: Int, offset: Int) async throws -> (items: [Schemas.Feature], total: Int) {
        try await snapshot { connection in
            let generation = try await Generations.current(on: connection, logger: logger)
            return try await features(app: app, prefix: prefix, limit: limit, offset: offset, generation: generation, on: connection)
        }
    }

    /// One page by the index on (generation, users DESC): each row's rank is one more than the features with
    /// more users (ties share it), counted on that index too, so a page costs its rows, not the whole list (a
    /// window over every feature took 80 ms a page with 5,000 features). The total is a count of its own,
    /// which the home page skips.
    private func features(
        app: String?, prefix: String?, limit: Int, offset: Int, generation: Int, withTotal: Bool = true, on connection: PostgresConnection
    ) async throws -> (items: [Schemas.Feature], total: Int) {
        let pattern = prefix.map { Self.likePrefix($0.lowercased()) }
        let rows = try await connection.tracedQuery(
            """
            SELECT 1 + (SELECT count(*) FROM features h
                        WHERE h.generation = \(generation) AND (\(app)::text IS NULL OR h.app = \(app)) AND h.users > f.users)::bigint,
                   f.app, f.feature, f.users, f.uses, f.sketch IS NOT NULL
            FROM features f
            WHERE f.generation = \(generation) AND (\(app)::text IS NULL OR f.app = \(app))
              AND (\(pattern)::text IS NULL OR lower(f.feature) LIKE \(pattern))
            ORDER BY f.users DESC, f.app, f.feature LIMIT \(limit) OFFSET \(offset)
            """, logger: logger)
        var items: [Schemas.Feature] = []
        for try await (rank, app, feature, users, uses, approximate) in rows.decode((Int, String, String, Int, Int, Bool).self) {
            guard let app = Schemas.App(rawValue: app) else { continue }
            items.append(
                .init(
                    rank: Int64(rank), app: app, name: feature, users: Int64(users), counting: approximate ? .approximate : .exact,
                    uses: Int64(uses)))
        }
        guard withTotal else { return (items, items.count) }
        let total =
            try await connection.tracedQuery(
                """
                SELECT count(*)::bigint FROM features WHERE generation = \(generation) AND (\(app)::text IS NULL OR app = \(app))
                  AND (\(pattern)::text IS NULL OR lower(feature) LIKE \(pattern))
                """, logger: logger
            ).decode(Int.self).collectAll().first ?? 0
        return (items, total)
    }

    func locations(limit: Int, offset: Int) async throws -> (items: [Schemas.Location], total: Int) {
        try await snapshot { connection in
            try await locations(
                limit: limit, offset: offset, generation: try await Generations.current(on: connection, logger: logger), on: connection)
        }
    }

    /// Cities by views, ranked like features (ties share a rank, counted on the index). The name is the catalogue's,
    /// as weather's favourite events carry it; a name sent with telemetry (by any client) only fills in for a city
    /// no favourite named yet, and never overrides the catalogue's.
    private func locations(
        limit: Int, offset: Int, generation: Int, withTotal: Bool = true, on connection: PostgresConnection
    ) async throws -> (
        items: [Schemas.Location], total: Int
    ) {
        let rows = try await connection.tracedQuery(
            """
            SELECT 1 + (SELECT count(*) FROM city_views h WHERE h.generation = \(generation) AND h.views > v.views)::bigint,
                   v.city_id, coalesce(n.name, v.name, 'city ' || v.city_id), v.views
            FROM city_views v LEFT JOIN city_names n ON n.city_id = v.city_id
            WHERE v.generation = \(generation)
            ORDER BY v.views DESC, v.city_id LIMIT \(limit) OFFSET \(offset)
            """, logger: logger)
        var items: [Schemas.Location] = []
        for try await (rank, city, name, views) in rows.decode((Int, Int, String, Int).self) {
            items.append(.init(rank: Int64(rank), cityId: Int64(city), name: name, views: Int64(views)))
        }
        guard withTotal else { return (items, items.count) }
        let total =
            try await connection.tracedQuery("SELECT count(*)::bigint FROM city_views WHERE generation = \(generation)", logger: logger)
            .decode(Int.self).collectAll().first ?? 0
        return (items, total)
    }

    /// The poll's answers, of the days of `range` when one is given (N5).
    func poll(range: DayRange? = nil) async throws -> [Schemas.PollQuestionResult] {
        try await snapshot { connection in
            try await poll(generation: try await Generations.current(on: connection, logger: logger), range: range, on: connection)
        }
    }

    private func poll(generation: Int, range: DayRange? = nil, on connection: PostgresConnection) async throws -> [Schemas.PollQuestionResult] {
        let rows =
            if let range {
                try await connection.tracedQuery(
                    """
                    SELECT question, sum(yes)::bigint, sum(no)::bigint FROM poll_results_daily
                    WHERE generation = \(generation) AND (\(range.from)::date IS NULL OR day >= \(range.from)::date)
                      AND (\(range.to)::date IS NULL OR day <= \(range.to)::date)
                    GROUP BY question
                    """, logger: logger)
            } else {
                try await connection.tracedQuery("SELECT question, yes, no FROM poll_results WHERE generation = \(generation)", logger: logger)
            }
        var counts: [String: (Int, Int)] = [:]
        for try await (question, yes, no) in rows.decode((String, Int, Int).self) { counts[question] = (yes, no) }
        return PollQuestions.all.map { question in
            let (yes, no) = counts[question.id] ?? (0, 0)
            return .init(
                id: question.id, text: question.text, yes: yes, no: no, yesPercent: PollQuestions.percent(yes, of: yes + no),
                noPercent: PollQuestions.percent(no, of: yes + no))
        }
    }

    /// The survey's results, of the days of `range` when one is given (N5).
    func survey(range: DayRange? = nil) async throws -> Schemas.SurveyStats {
        try await snapshot { connection in
            try await survey(generation: try await Generations.current(on: connection, logger: logger), range: range, on: connection)
        }
    }

    /// One page of the survey's reasons (N4), newest first, with how many match.
    func surveyReasons(service: String?, range: DayRange? = nil, limit: Int, offset: Int) async throws -> (items: [Schemas.SurveyReason], total: Int)
    {
        try await snapshot { connection in
            let generation = try await Generations.current(on: connection, logger: logger)
            let reasons = try await SurveyReasons.page(
                generation: generation, service: service, range: range, limit: limit, offset: offset, on: connection, logger: logger)
            let total = try await SurveyReasons.count(generation: generation, service: service, range: range, on: connection, logger: logger)
            let items = reasons.map { reason in
                Schemas.SurveyReason(
                    part: .init(rawValue: reason.part) ?? .service, service: reason.service.flatMap(Schemas.HotelService.init(rawValue:)),
                    points: reason.points, stars: reason.stars, why: reason.why, explainedAt: reason.at)
            }
            return (items, total)
        }
    }

    private func survey(generation: Int, range: DayRange? = nil, on connection: PostgresConnection) async throws -> Schemas.SurveyStats {
        let (from, to) = (range?.from, range?.to)
        let rows =
            if range != nil {
                try await connection.tracedQuery(
                    """
                    SELECT service, sum(submissions)::bigint, sum(points)::bigint, sum(below_good)::bigint FROM survey_service_daily
                    WHERE generation = \(generation) AND (\(from)::date IS NULL OR day >= \(from)::date) AND (\(to)::date IS NULL OR day <= \(to)::date)
                    GROUP BY service
                    """, logger: logger)
            } else {
                try await connection.tracedQuery(
                    "SELECT service, submissions, points, below_good FROM survey_service_results WHERE generation = \(generation)", logger: logger)
            }
        var byService: [String: (Int, Int, Int)] = [:]
        for try await (service, submissions, points, below) in rows.decode((String, Int, Int, Int).self) {
            byService[service] = (submissions, points, below)
        }
        let services: [Schemas.SurveyStats.ServicesPayloadPayload] = HotelSurvey.services.compactMap { service in
            guard let id = Schemas.HotelService(rawValue: service.id) else { return nil }
            let (submissions, points, below) = byService[service.id] ?? (0, 0, 0)
            let average = submissions > 0 ? (Double(points) * 10 / Double(submissions)).rounded() / 10 : 0
            return .init(service: id, submissions: Int64(submissions), averagePoints: average, belowGood: Int64(below))
        }
        let overallRows =
            if range != nil {
                try await connection.tracedQuery(
                    """
                    SELECT stars, sum(submissions)::bigint FROM survey_overall_daily
                    WHERE generation = \(generation) AND (\(from)::date IS NULL OR day >= \(from)::date) AND (\(to)::date IS NULL OR day <= \(to)::date)
                    GROUP BY stars ORDER BY stars
                    """, logger: logger)
            } else {
                try await connection.tracedQuery(
                    "SELECT stars, submissions FROM survey_overall_results WHERE generation = \(generation) ORDER BY stars", logger: logger)
            }
        var stars: [Int: Int] = [:]
        for try await (star, count) in overallRows.decode((Int, Int).self) { stars[star] = count }
        let submissions = stars.values.reduce(0, +)
        // Coupons issued, not submissions: one waits for a verified address and a mailbox gets one (N4).
        // In a range: the coupons of the overall ratings given on its days (UTC).
        let coupons =
            try await connection.tracedQuery(
                """
                SELECT count(*)::bigint FROM survey_overall WHERE coupon_code IS NOT NULL
                  AND (\(from)::date IS NULL OR (submitted_at AT TIME ZONE 'UTC')::date >= \(from)::date)
                  AND (\(to)::date IS NULL OR (submitted_at AT TIME ZONE 'UTC')::date <= \(to)::date)
                """, logger: logger
            ).decode(Int.self).collectAll().first ?? 0
        return .init(
            services: services,
            overall: .init(
                submissions: Int64(submissions), stars: (0...5).map { .init(key: "\($0)", count: Int64(stars[$0] ?? 0)) },
                coupons: Int64(coupons)))
    }

    private func counts(_ sql: String, _ generation: Int, on connection: PostgresConnection) async throws -> [Schemas.CountByKey] {
        var bindings = PostgresBindings()
        bindings.append(generation)
        let rows = try await connection.tracedQuery(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        var result: [Schemas.CountByKey] = []
        for try await (key, count) in rows.decode((String, Int).self) { result.append(.init(key: key, count: Int64(count))) }
        return result
    }

    /// `text%` with LIKE's own characters escaped, so a prefix is taken literally.
    static func likePrefix(_ text: String) -> String {
        var escaped = ""
        for character in RequestText.withoutNUL(text) {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "%"
    }
}
