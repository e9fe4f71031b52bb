import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Writes an `AggregateDelta` into one generation's tables, one statement per table, keys sorted so that
/// concurrent batches (one per partition) take row locks in the same order and never deadlock.
struct AggregateWriter: Sendable {
    /// Distinct users per feature counted exactly up to this; beyond it, with a HyperLogLog sketch.
    let exactUsersLimit: Int
    /// The key of `erased_accounts`: a deleted account's late or replayed telemetry counts without its user.
    let erased: ErasedAccounts

    func write(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        try await writeDownloads(delta, generation: generation, on: connection, logger: logger)
        try await writeFeatures(delta, generation: generation, on: connection, logger: logger)
        try await writeCities(delta, generation: generation, on: connection, logger: logger)
        try await writeDailyUsesAndViews(delta, generation: generation, on: connection, logger: logger)
        try await writePollAndSurvey(delta, generation: generation, on: connection, logger: logger)
        try await DailyPollAndSurveyWriter.write(delta, generation: generation, on: connection, logger: logger)
        try await SurveyReasons.insert(delta.reasons, generation: generation, on: connection, logger: logger)
    }

    private func writeDownloads(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        guard !delta.downloads.isEmpty else { return }
        let rows = delta.downloads.sorted { $0.key < $1.key }
        let days = rows.map(\.key.day), apps = rows.map(\.key.app), platforms = rows.map(\.key.platform), counts = rows.map(\.value)
        try await connection.tracedQuery(
            """
            INSERT INTO downloads_daily (generation, day, app, platform, downloads)
            SELECT \(generation), d, a, p, n FROM unnest(\(days)::date[], \(apps)::text[], \(platforms)::text[], \(counts)::bigint[]) AS t(d, a, p, n)
            ON CONFLICT (generation, day, app, platform) DO UPDATE SET downloads = downloads_daily.downloads + excluded.downloads
            """, logger: logger)
    }

    /// Uses are a sum. Users: the feature's new members go into `feature_users` while it is exact; past the
    /// limit its members become a sketch (and leave the table), and later users go into the sketch.
    private func writeFeatures(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        guard !delta.featureUses.isEmpty else { return }
        // The users first: naming them takes the accounts' locks, which an erasure holding them takes before the
        // feature rows this statement locks below.
        let featureUsers = try await members(of: delta.featureUsers, on: connection, logger: logger)
        let keys = delta.featureUses.keys.sorted()
        let apps = keys.map(\.app), names = keys.map(\.feature), uses = keys.map { delta.featureUses[$0] ?? 0 }
        // Locks the rows (in key order) and says which are sketches already.
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO features (generation, app, feature, users, uses)
            SELECT \(generation), a, f, 0, u FROM unnest(\(apps)::text[], \(names)::text[], \(uses)::bigint[]) AS t(a, f, u)
            ON CONFLICT (generation, app, feature) DO UPDATE SET uses = features.uses + excluded.uses
            RETURNING app, feature, sketch
            """, logger: logger)
        var sketches: [AggregateDelta.FeatureKey: HyperLogLog] = [:]
        for try await (app, feature, sketch) in rows.decode((String, String, ByteBuffer?).self) {
            guard let sketch else { continue }
            // A sketch of the wrong size cannot come from this code; start it again rather than trap.
            sketches[.init(app: app, feature: feature)] = HyperLogLog(bytes: Array(sketch.readableBytesView)) ?? HyperLogLog()
        }
        var memberApps: [String] = [], memberNames: [String] = [], memberKeys: [String] = []
        for key in keys where sketches[key] == nil {
            for user in (featureUsers[key] ?? []).sorted() {
                memberApps.append(key.app)
                memberNames.append(key.feature)
                memberKeys.append(user)
            }
        }
        if !memberKeys.isEmpty {
            let counted = try await connection.tracedQuery(
                """
                WITH fresh AS (
                    INSERT INTO feature_users (generation, app, feature, user_key)
                    SELECT \(generation), a, f, u FROM unnest(\(memberApps)::text[], \(memberNames)::text[], \(memberKeys)::text[]) AS t(a, f, u)
                    ON CONFLICT DO NOTHING RETURNING app, feature
                ), added AS (SELECT app, feature, count(*) AS n FROM fresh GROUP BY app, feature)
                UPDATE features SET users = features.users + added.n FROM added
                WHERE features.generation = \(generation) AND features.app = added.app AND features.feature = added.feature
                RETURNING features.app, features.feature, features.users
                """, logger: logger)
            var overLimit: [AggregateDelta.FeatureKey] = []
            for try await (app, feature, users) in counted.decode((String, String, Int).self) where users > exactUsersLimit {
                overLimit.append(.init(app: app, feature: feature))
            }
            for key in overLimit.sorted() {
                sketches[key] = try await sketchFromMembers(key, generation: generation, on: connection, logger: logger)
            }
        }
        for (key, sketch) in sketches.sorted(by: { $0.key < $1.key }) {
            var sketch = sketch
            for user in featureUsers[key] ?? [] { sketch.add(user) }
            let bytes = ByteBuffer(bytes: sketch.registers)
            try await connection.tracedQuery(
                """
                UPDATE features SET sketch = \(bytes), users = \(sketch.estimate)
                WHERE generation = \(generation) AND app = \(key.app) AND feature = \(key.feature)
                """, logger: logger)
        }
    }

    /// Turns an exact feature into a sketch now (its members leave `feature_users`), whatever its count: how
    /// retention lets go of user keys. The feature row is locked first, as the writer locks it.
    func retireMembers(_ key: AggregateDelta.FeatureKey, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        let exact = try await connection.tracedQuery(
            """
            SELECT sketch IS NULL FROM features WHERE generation = \(generation) AND app = \(key.app) AND feature = \(key.feature)
            FOR UPDATE
            """, logger: logger
        ).decode(Bool.self).collectAll()
        guard exact.first == true else { return }
        let sketch = try await sketchFromMembers(key, generation: generation, on: connection, logger: logger)
        try await connection.tracedQuery(
            """
            UPDATE features SET sketch = \(ByteBuffer(bytes: sketch.registers)), users = \(sketch.estimate)
            WHERE generation = \(generation) AND app = \(key.app) AND feature = \(key.feature)
            """, logger: logger)
    }

    /// The exact members of a feature as a sketch; the members leave `feature_users`.
    private func sketchFromMembers(
        _ key: AggregateDelta.FeatureKey, generation: Int, on connection: PostgresConnection, logger: Logger
    ) async throws -> HyperLogLog {
        let rows = try await connection.tracedQuery(
            """
            DELETE FROM feature_users WHERE generation = \(generation) AND app = \(key.app) AND feature = \(key.feature)
            RETURNING user_key
            """, logger: logger)
        var sketch = HyperLogLog()
        for try await user in rows.decode(String.self) { sketch.add(user) }
        return sketch
    }

    /// The users a batch counts, each under the one name it keeps here: an account's pseudonym (`p:`), made for an
    /// account an older event named by its id (`u:`); a device as it came (`d:`). An erased account's events count
    /// without a user, whichever form they have: its pseudonym is gone, and its id is among the erased ones (U9).
    private func members(
        of users: [AggregateDelta.FeatureKey: Set<String>], on connection: PostgresConnection, logger: Logger
    ) async throws -> [AggregateDelta.FeatureKey: Set<String>] {
        let all = users.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let prefix = AccountPseudonym.prefix
        // Ids as erasure names them (lower case): an older event may spell one otherwise.
        let accounts = Set(all.filter { $0.hasPrefix("u:") }.map { $0.dropFirst(2).lowercased() })
        let named = Set(all.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        let pseudonyms = try await AccountPseudonyms.resolve(accounts, erased: erased, on: connection, logger: logger)
        let live = try await AccountPseudonyms.live(named, on: connection, logger: logger)
        func member(_ user: String) -> String? {
            if user.hasPrefix("u:") { return pseudonyms[user.dropFirst(2).lowercased()].map { prefix + $0 } }
            if user.hasPrefix(prefix) { return live.contains(String(user.dropFirst(prefix.count))) ? user : nil }
            return user
        }
        return users.mapValues { Set($0.compactMap(member)) }
    }

    private func writeCities(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        guard !delta.cities.isEmpty else { return }
        let rows = delta.cities.sorted { $0.key < $1.key }
        let ids = rows.map(\.key), views = rows.map(\.value.views), names = NullableTextArray(rows.map(\.value.name))
        try await connection.tracedQuery(
            """
            INSERT INTO city_views (generation, city_id, views, name)
            SELECT \(generation), c, v, n FROM unnest(\(ids)::bigint[], \(views)::bigint[], \(names)::text[]) AS t(c, v, n)
            ON CONFLICT (generation, city_id) DO UPDATE SET views = city_views.views + excluded.views,
                name = CASE WHEN city_views.name IS NULL THEN excluded.name WHEN excluded.name IS NULL THEN city_views.name
                            ELSE LEAST(city_views.name, excluded.name) END
            """, logger: logger)
    }

    /// Feature uses and city views per day, which the totals above cannot give back: the trends' series and
    /// the ranked tables of a date range (N5).
    private func writeDailyUsesAndViews(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        if !delta.featureUsesByDay.isEmpty {
            let rows = delta.featureUsesByDay.sorted { $0.key < $1.key }
            let days = rows.map(\.key.day), apps = rows.map(\.key.app), names = rows.map(\.key.feature), uses = rows.map(\.value)
            try await connection.tracedQuery(
                """
                INSERT INTO feature_uses_daily (generation, day, app, feature, uses)
                SELECT \(generation), d, a, f, u FROM unnest(\(days)::date[], \(apps)::text[], \(names)::text[], \(uses)::bigint[]) AS t(d, a, f, u)
                ON CONFLICT (generation, day, app, feature) DO UPDATE SET uses = feature_uses_daily.uses + excluded.uses
                """, logger: logger)
        }
        if !delta.cityViewsByDay.isEmpty {
            let rows = delta.cityViewsByDay.sorted { $0.key < $1.key }
            let days = rows.map(\.key.day), ids = rows.map(\.key.city), views = rows.map(\.value)
            try await connection.tracedQuery(
                """
                INSERT INTO city_views_daily (generation, day, city_id, views)
                SELECT \(generation), d, c, v FROM unnest(\(days)::date[], \(ids)::bigint[], \(views)::bigint[]) AS t(d, c, v)
                ON CONFLICT (generation, day, city_id) DO UPDATE SET views = city_views_daily.views + excluded.views
                """, logger: logger)
        }
    }

    private func writePollAndSurvey(_ delta: AggregateDelta, generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        if !delta.poll.isEmpty {
            let rows = delta.poll.sorted { $0.key < $1.key }
            let questions = rows.map(\.key), yes = rows.map(\.value.yes), no = rows.map(\.value.no)
            try await connection.tracedQuery(
                """
                INSERT INTO poll_results (generation, question, yes, no)
                SELECT \(generation), q, y, n FROM unnest(\(questions)::text[], \(yes)::bigint[], \(no)::bigint[]) AS t(q, y, n)
                ON CONFLICT (generation, question) DO UPDATE SET yes = poll_results.yes + excluded.yes, no = poll_results.no + excluded.no
                """, logger: logger)
        }
        if !delta.services.isEmpty {
            let rows = delta.services.sorted { $0.key < $1.key }
            let services = rows.map(\.key), submissions = rows.map(\.value.submissions)
            let points = rows.map(\.value.points), below = rows.map(\.value.belowGood)
            try await connection.tracedQuery(
                """
                INSERT INTO survey_service_results (generation, service, submissions, points, below_good)
                SELECT \(generation), s, n, p, b FROM unnest(\(services)::text[], \(submissions)::bigint[], \(points)::bigint[], \(below)::bigint[]) AS t(s, n, p, b)
                ON CONFLICT (generation, service) DO UPDATE SET submissions = survey_service_results.submissions + excluded.submissions,
                    points = survey_service_results.points + excluded.points, below_good = survey_service_results.below_good + excluded.below_good
                """, logger: logger)
        }
        if !delta.overall.isEmpty {
            let rows = delta.overall.sorted { $0.key < $1.key }
            let stars = rows.map(\.key), counts = rows.map(\.value)
            try await connection.tracedQuery(
                """
                INSERT INTO survey_overall_results (generation, stars, submissions)
                SELECT \(generation), s, n FROM unnest(\(stars)::integer[], \(counts)::bigint[]) AS t(s, n)
                ON CONFLICT (generation, stars) DO UPDATE SET submissions = survey_overall_results.submissions + excluded.submissions
                """, logger: logger)
        }
    }
}
