import Foundation
import PlatformCore
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

@testable import AnalyticsAggregator

/// The dashboard's trends (N5): per-day series of downloads, feature uses and city views over a range, the
/// previous period's total and the change, and the features and cities tables narrowed to the range.
@Suite("analytics trends (N5)")
struct AnalyticsTrendTests {
    /// Two weeks of telemetry with known daily counts, day 0 being today.
    struct TwoWeeks {
        let now = Date()
        var weather: [[String: any Sendable]] = []
        var places: [[String: any Sendable]] = []

        static func installs(day: Int) -> Int { day % 4 + 1 }
        static func radarUses(day: Int) -> Int { day % 3 + 1 }

        init() {
            for day in 0..<14 {
                let time = now.addingTimeInterval(-Double(day) * 86_400)
                for _ in 0..<Self.installs(day: day) { weather.append(AnalyticsTestHarness.event("install", at: time)) }
                if day < 7 { places.append(AnalyticsTestHarness.event("install", at: time, platform: "android")) }
                for _ in 0..<Self.radarUses(day: day) { weather.append(AnalyticsTestHarness.event("feature_used", at: time, feature: "radar")) }
                if day == 10 {
                    for user in 0..<5 { weather.append(AnalyticsTestHarness.event("feature_used", user: "u\(user)", at: time, feature: "alerts")) }
                }
                if day == 1 { for _ in 0..<2 { weather.append(AnalyticsTestHarness.event("city_viewed", at: time, city: 1_609_350)) } }
                if day == 9 { for _ in 0..<3 { weather.append(AnalyticsTestHarness.event("city_viewed", at: time, city: 2_643_743)) } }
            }
        }

        /// The UTC day `days` before the events' today.
        func day(_ days: Int) -> String { CivilDate(clamping: now.addingTimeInterval(-Double(days) * 86_400)).description }
    }

    @Test("N5: a week's series per day, its total, the week before and the change; by app; every day has a point")
    func dailySeries() async throws {
        try await AnalyticsTestHarness.run { harness in
            let weeks = TwoWeeks()
            try await harness.ingestAll(weeks.weather)
            try await harness.ingestAll(weeks.places, key: AnalyticsTestHarness.placesKey)
            let installs = (0..<14).map(TwoWeeks.installs(day:)).reduce(0, +) + 7
            #expect(try await harness.waitForDownloads(installs))
            #expect(try await eventually { try await harness.count("SELECT coalesce(sum(views), 0)::bigint FROM city_views_daily") == 5 })

            let week = "from=\(weeks.day(6))&to=\(weeks.day(0))"
            let weather = try await harness.stats("/v1/admin/stats/trends?metric=downloads&app=weather&\(week)")
            let expectedWeek = (0..<7).reversed().map(TwoWeeks.installs(day:))
            let previousWeek = (7..<14).map(TwoWeeks.installs(day:)).reduce(0, +)
            #expect(weather["points"].array.map { $0["day"].string ?? "" } == (0..<7).reversed().map(weeks.day))
            #expect(weather["points"].array.map { $0["count"].int ?? -1 } == expectedWeek)
            #expect(weather["total"].int == expectedWeek.reduce(0, +))
            #expect(weather["previous"]["from"].string == weeks.day(13) && weather["previous"]["to"].string == weeks.day(7))
            #expect(weather["previous"]["total"].int == previousWeek)
            let change = TrendPeriod.change(from: previousWeek, to: expectedWeek.reduce(0, +)) ?? .nan
            #expect(weather["changePercent"].double == change)

            // Every app: the places app's one install a day more.
            let all = try await harness.stats("/v1/admin/stats/trends?metric=downloads&\(week)")
            #expect(all["points"].array.map { $0["count"].int ?? -1 } == expectedWeek.map { $0 + 1 })

            let uses = try await harness.stats("/v1/admin/stats/trends?metric=featureUses&\(week)")
            #expect(uses["points"].array.map { $0["count"].int ?? -1 } == (0..<7).reversed().map(TwoWeeks.radarUses(day:)))
            #expect(uses["previous"]["total"].int == (7..<14).map(TwoWeeks.radarUses(day:)).reduce(0, +) + 5)

            let views = try await harness.stats("/v1/admin/stats/trends?metric=cityViews&from=\(weeks.day(13))&to=\(weeks.day(0))")
            #expect(views["points"].count == 14)
            #expect(views["points"].array.filter { ($0["count"].int ?? 0) > 0 }.map { $0["day"].string ?? "" } == [weeks.day(9), weeks.day(1)])
            #expect(views["total"].int == 5)
            // Nothing before: no percentage of a change from zero.
            #expect(views["previous"]["total"].int == 0 && views["changePercent"].raw == nil)

            // No range: the 30 days up to today.
            let month = try await harness.stats("/v1/admin/stats/trends?metric=downloads")
            #expect(month["points"].count == 30)
            #expect(month["total"].int == installs)
        }
    }

    @Test("N5: the features and cities tables of a range count only its days; all days when none is given")
    func tablesOfARange() async throws {
        try await AnalyticsTestHarness.run { harness in
            let weeks = TwoWeeks()
            try await harness.ingestAll(weeks.weather)
            #expect(
                try await eventually {
                    try await harness.count("SELECT coalesce(sum(uses), 0)::bigint FROM feature_uses_daily") == 5
                        + (0..<14).map(TwoWeeks.radarUses(day:)).reduce(0, +)
                })
            #expect(try await eventually { try await harness.count("SELECT coalesce(sum(views), 0)::bigint FROM city_views_daily") == 5 })

            let thisWeek = try await harness.stats("/v1/admin/stats/features?from=\(weeks.day(6))&to=\(weeks.day(0))")
            #expect(thisWeek["total"].int == 1)
            #expect(thisWeek["items"][0]["name"].string == "radar")
            #expect(thisWeek["items"][0]["uses"].int == (0..<7).map(TwoWeeks.radarUses(day:)).reduce(0, +))
            // Users stay the distinct users of all days (the test's radar events each came from a new device).
            #expect(thisWeek["items"][0]["users"].int == (0..<14).map(TwoWeeks.radarUses(day:)).reduce(0, +))

            let lastWeek = try await harness.stats("/v1/admin/stats/features?from=\(weeks.day(13))&to=\(weeks.day(7))")
            #expect(lastWeek["items"].array.map { $0["name"].string ?? "" } == ["radar", "alerts"])
            #expect(lastWeek["items"].array.map { $0["uses"].int ?? 0 } == [(7..<14).map(TwoWeeks.radarUses(day:)).reduce(0, +), 5])
            #expect(lastWeek["items"].array.map { $0["rank"].int ?? 0 } == [1, 2])
            // The prefix narrows, the rank stays the range's.
            let prefixed = try await harness.stats("/v1/admin/stats/features?prefix=al&from=\(weeks.day(13))&to=\(weeks.day(7))")
            #expect(prefixed["items"].array.map { $0["rank"].int ?? 0 } == [2] && prefixed["total"].int == 1)
            let pastEnd = try await harness.stats("/v1/admin/stats/features?from=\(weeks.day(13))&page=3&pageSize=1")
            #expect(pastEnd["items"].count == 0 && pastEnd["total"].int == 2)

            let cities = try await harness.stats("/v1/admin/stats/locations?from=\(weeks.day(6))")
            #expect(cities["items"].array.map { $0["cityId"].int ?? 0 } == [1_609_350])
            #expect(cities["items"][0]["views"].int == 2 && cities["total"].int == 1)
            let allDays = try await harness.stats("/v1/admin/stats/locations")
            #expect(allDays["items"].array.map { $0["views"].int ?? 0 } == [3, 2])
        }
    }

    @Test("N5: the poll's, the survey's and the reasons' tables of a range count only its days")
    func pollAndSurveyOfARange() async throws {
        try await AnalyticsTestHarness.run { harness in
            let telemetry = try #require(harness.environment.string("ANALYTICS_TELEMETRY_TOPIC"))
            let now = Date()
            func at(_ days: Int) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }
            func day(_ days: Int) -> String { CivilDate(clamping: at(days)).description }
            // Today: two yes to "benefit", a gym of 80 points, a five-star stay. Ten days ago: a no, a gym of 40
            // points (below good, with why), a two-star stay.
            let events: [(Date, EventType, any Codable & Sendable)] = [
                (at(0), EventTypes.pollAnswered, PollAnswered(userId: "u1", questionId: "benefit", answer: true)),
                (at(0), EventTypes.pollAnswered, PollAnswered(userId: "u2", questionId: "benefit", answer: true)),
                (at(10), EventTypes.pollAnswered, PollAnswered(userId: "u3", questionId: "benefit", answer: false)),
                (at(0), EventTypes.surveySubmitted, SurveySubmitted(userId: "g1", part: .service, service: .gym, points: 80, belowGood: false)),
                (at(10), EventTypes.surveySubmitted, SurveySubmitted(userId: "g2", part: .service, service: .gym, points: 40, belowGood: true)),
                (at(0), EventTypes.surveySubmitted, SurveySubmitted(userId: "g1", part: .overall, points: 500, stars: 5, belowGood: false)),
                (at(10), EventTypes.surveySubmitted, SurveySubmitted(userId: "g2", part: .overall, points: 200, stars: 2, belowGood: true)),
                (at(10), EventTypes.surveyExplained, SurveyExplained(part: .service, service: .gym, points: 40, why: "Broken bikes.")),
            ]
            for (time, type, payload) in events {
                try await Self.publish(payload, type: type, at: time, to: telemetry, harness: harness)
            }
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey/reasons")["total"].int == 1 })
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey")["overall"]["submissions"].int == 2 })
            #expect(try await eventually { try await harness.stats("/v1/poll/results")["questions"][0]["no"].int == 1 })

            let thisWeek = "from=\(day(6))&to=\(day(0))"
            let poll = try await harness.stats("/v1/poll/results?\(thisWeek)")["questions"].array.first { $0["id"].string == "benefit" }
            #expect(poll?["yes"].int == 2 && poll?["no"].int == 0 && poll?["yesPercent"].double == 100)
            let survey = try await harness.stats("/v1/admin/stats/survey?\(thisWeek)")
            let gym = survey["services"].array.first { $0["service"].string == "gym" }
            #expect(gym?["submissions"].int == 1 && gym?["averagePoints"].double == 80 && gym?["belowGood"].int == 0)
            let stars = Dictionary(uniqueKeysWithValues: survey["overall"]["stars"].array.map { ($0["key"].string ?? "", $0["count"].int ?? 0) })
            #expect(stars["5"] == 1 && stars["2"] == 0 && survey["overall"]["submissions"].int == 1)
            #expect(try await harness.stats("/v1/admin/stats/survey/reasons?\(thisWeek)")["total"].int == 0)
            let earlier = "from=\(day(13))&to=\(day(7))"
            #expect(try await harness.stats("/v1/admin/stats/survey/reasons?\(earlier)")["items"][0]["why"].string == "Broken bikes.")
            let before = try await harness.stats("/v1/admin/stats/survey?\(earlier)")
            #expect(before["services"].array.first { $0["service"].string == "gym" }?["belowGood"].int == 1)
            // No range: every day, as before.
            let all = try await harness.stats("/v1/poll/results")["questions"].array.first { $0["id"].string == "benefit" }
            #expect(all?["yes"].int == 2 && all?["no"].int == 1)
        }
    }

    static func publish<Payload: Codable & Sendable>(
        _ payload: Payload, type: EventType, at time: Date, to topic: String, harness: AnalyticsTestHarness
    ) async throws {
        let envelope = EventEnvelope(type: type, occurredAt: time, producer: "analytics-aggregator", key: UUID().uuidString, payload: payload)
        try await harness.publish(envelope, to: topic)
    }

    @Test("N5, X3: a reversed, too long or per-app-less range is a clear 422; no metric is 400")
    func refusedRanges() async throws {
        try await AnalyticsTestHarness.run { harness in
            let admin = try await harness.adminToken()
            for (query, code) in [
                ("metric=downloads&from=2026-03-02&to=2026-03-01", "bad_range"),
                ("metric=downloads&from=2000-01-01&to=2026-01-01", "range_too_long"),
                ("metric=cityViews&app=weather", "not_per_app"),
                ("metric=downloads&from=1969-12-31", "bad_day"),
            ] {
                let (status, body) = try await harness.request(.get, "/v1/admin/stats/trends?\(query)", bearer: admin)
                #expect(status == .unprocessableContent && body["error"]["code"].string == code, "\(query): \(status) \(body.raw ?? "")")
            }
            #expect(try await harness.request(.get, "/v1/admin/stats/trends", bearer: admin).0 == .badRequest)
            #expect(try await harness.request(.get, "/v1/admin/stats/trends?metric=downloads&to=2026-02-30", bearer: admin).0 == .badRequest)
            let (reversed, body) = try await harness.request(.get, "/v1/admin/stats/locations?from=2026-03-02&to=2026-03-01", bearer: admin)
            #expect(reversed == .unprocessableContent && body["error"]["code"].string == "bad_range")
            #expect(try await harness.request(.get, "/v1/admin/stats/trends?metric=downloads", bearer: try await harness.userToken()).0 == .forbidden)
        }
    }
}
