import Foundation
import Logging
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import AnalyticsAggregator

/// The aggregates (N2) on a generated dataset whose answers the test knows, and the rebuild from the topics
/// (N6) giving the same numbers as the live path, with events arriving while it runs.
@Suite("analytics aggregates (N2, N6)")
struct AnalyticsAggregateTests {
    /// A dataset with known answers: features with 1...12 distinct users (each using it twice), a feature
    /// past the exact limit, installs over days, apps and platforms, city views with names.
    struct Dataset {
        var events: [[String: any Sendable]] = []
        var placesEvents: [[String: any Sendable]] = []
        var featureUsers: [String: Int] = [:]
        var downloads = 0
        var cityViews: [Int: Int] = [:]

        init(bigFeatureUsers: Int) {
            let now = Date()
            for index in 1...12 {
                let feature = "search-\(index < 10 ? "0" : "")\(index)"
                featureUsers[feature] = index
                for user in 0..<index {
                    for _ in 0..<2 {
                        events.append(AnalyticsTestHarness.event("feature_used", user: "user-\(user)", feature: feature))
                    }
                }
            }
            for user in 0..<bigFeatureUsers {
                events.append(AnalyticsTestHarness.event("feature_used", device: "device-\(user)", feature: "radar"))
            }
            featureUsers["radar"] = bigFeatureUsers
            for index in 0..<60 {
                let platform = ["ios", "android", "web"][index % 3]
                let day = now.addingTimeInterval(-Double(index % 5) * 86_400)
                if index % 4 == 0 {
                    placesEvents.append(AnalyticsTestHarness.event("install", at: day, platform: platform))
                } else {
                    events.append(AnalyticsTestHarness.event("install", at: day, platform: platform))
                }
                downloads += 1
            }
            for (city, views) in [(1_609_350, 9), (2_643_743, 5), (5_128_581, 7), (1_850_147, 2), (2_988_507, 4), (3_369_157, 1)] {
                for view in 0..<views {
                    events.append(AnalyticsTestHarness.event("city_viewed", city: city, cityName: view == 0 ? "City \(city)" : nil))
                }
                cityViews[city] = views
            }
            events.append(AnalyticsTestHarness.event("screen_viewed"))
            events.shuffle()
        }
    }

    static func snapshot(_ harness: AnalyticsTestHarness) async throws -> [String] {
        var pages: [String] = []
        for path in [
            "/v1/admin/stats/home", "/v1/admin/stats/features?pageSize=100", "/v1/admin/stats/features?prefix=search-0&pageSize=5",
            "/v1/admin/stats/downloads?pageSize=100", "/v1/admin/stats/locations", "/v1/admin/stats/survey",
            "/v1/admin/stats/survey/reasons", "/v1/admin/stats/trends?metric=featureUses", "/v1/admin/stats/trends?metric=cityViews",
            "/v1/admin/stats/features?from=1970-01-01&pageSize=100", "/v1/admin/stats/locations?from=1970-01-01",
        ] {
            let body = try await harness.stats(path)
            let data = try JSONSerialization.data(withJSONObject: body.raw ?? [:], options: [.sortedKeys])
            pages.append("\(path) \(String(decoding: data, as: UTF8.self))")
        }
        return pages
    }

    @Test("N2: downloads, top features with rank and exact or HyperLogLog users, locations with names, on a generated dataset")
    func generatedDataset() async throws {
        try await AnalyticsTestHarness.run(extraEnvironment: ["DISTINCT_USERS_EXACT_LIMIT": "50"]) { harness in
            let dataset = Dataset(bigFeatureUsers: 1_500)
            try await harness.ingestAll(dataset.events)
            try await harness.ingestAll(dataset.placesEvents, key: AnalyticsTestHarness.placesKey)
            #expect(try await harness.waitForDownloads(dataset.downloads))
            let totalUses = dataset.events.filter { ($0["kind"] as? String) == "feature_used" }.count
            #expect(try await eventually { try await harness.count("SELECT coalesce(sum(uses), 0)::bigint FROM features") == totalUses })

            let features = try await harness.stats("/v1/admin/stats/features?pageSize=100")
            let items = features["items"].array
            #expect(features["total"].int == 13)
            // radar first, approximate within 5% of 1,500; then search-12 ... search-01, exact, each used twice per user.
            #expect(items.first?["name"].string == "radar")
            #expect(items.first?["counting"].string == "approximate")
            let radar = items.first?["users"].int ?? 0
            #expect(abs(radar - 1_500) <= 75, "HyperLogLog estimate \(radar) for 1,500")
            let exact = items.dropFirst()
            #expect(exact.map { $0["name"].string ?? "" } == (1...12).reversed().map { "search-\($0 < 10 ? "0" : "")\($0)" })
            #expect(exact.allSatisfy { $0["counting"].string == "exact" })
            #expect(exact.map { $0["users"].int ?? 0 } == Array((1...12).reversed()))
            #expect(exact.map { $0["uses"].int ?? 0 } == (1...12).reversed().map { $0 * 2 })
            #expect(items.map { $0["rank"].int ?? 0 } == Array(1...13))

            // Prefix search keeps each feature's overall rank; LIKE's own characters are taken literally.
            let search = try await harness.stats("/v1/admin/stats/features?prefix=SEARCH-0&pageSize=3&page=2")
            #expect(search["total"].int == 9)
            #expect(search["items"].array.map { $0["name"].string ?? "" } == ["search-06", "search-05", "search-04"])
            #expect(search["items"].array.map { $0["rank"].int ?? 0 } == [8, 9, 10])
            #expect(try await harness.stats("/v1/admin/stats/features?prefix=search_")["total"].int == 0)
            // A page past the end still says how many there are.
            let pastEnd = try await harness.stats("/v1/admin/stats/features?pageSize=10&page=5")
            #expect(pastEnd["items"].count == 0 && pastEnd["total"].int == 13)
            #expect(try await harness.stats("/v1/admin/stats/locations?pageSize=10&page=3")["total"].int == 6)

            let home = try await harness.stats("/v1/admin/stats/home")
            #expect(home["downloads"]["total"].int == dataset.downloads)
            #expect(home["topFeatures"].array.map { $0["name"].string ?? "" } == ["radar", "search-12", "search-11", "search-10", "search-09"])
            let platforms = Dictionary(
                uniqueKeysWithValues: home["downloads"]["byPlatform"].array.map { ($0["key"].string ?? "", $0["count"].int ?? 0) })
            #expect(platforms == ["ios": 20, "android": 20, "web": 20])

            let locations = try await harness.stats("/v1/admin/stats/locations")["items"].array
            #expect(locations.map { $0["cityId"].int ?? 0 } == [1_609_350, 5_128_581, 2_643_743, 2_988_507, 1_850_147, 3_369_157])
            #expect(locations.map { $0["views"].int ?? 0 } == [9, 7, 5, 4, 2, 1])
            #expect(locations.first?["name"].string == "City 1609350")
        }
    }

    @Test("N2, X3: a city's name is the one weather's favourites give it; a name in telemetry never overrides it")
    func cityNamesFromFavourites() async throws {
        try await AnalyticsTestHarness.run { harness in
            let city = ForecastCity(
                id: 1_609_350, name: "Bangkok", region: "Bangkok", countryCode: "TH", country: "Thailand", latitude: 13.75, longitude: 100.5,
                timeZone: "Asia/Bangkok")
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.favouriteAdded, producer: "weather-fetcher", key: "u1", payload: FavouriteChanged(userId: "u1", city: city)),
                to: harness.userCitiesTopic)
            // A client's name sorts first ("AAA..."), as a name planted to show on the dashboard would.
            try await harness.ingestAll([
                AnalyticsTestHarness.event("city_viewed", city: 1_609_350, cityName: "AAA planted"),
                AnalyticsTestHarness.event("city_viewed", city: 42),
            ])
            #expect(
                try await eventually {
                    let items = try await harness.stats("/v1/admin/stats/locations")["items"].array
                    return Set(items.map { $0["name"].string ?? "" }) == ["Bangkok", "city 42"]
                })
        }
    }

    @Test("N6: a rebuild from the topics gives the live numbers, with events arriving while it runs")
    func rebuildEqualsLive() async throws {
        try await AnalyticsTestHarness.run(extraEnvironment: ["DISTINCT_USERS_EXACT_LIMIT": "50"]) { harness in
            let dataset = Dataset(bigFeatureUsers: 300)
            try await harness.ingestAll(dataset.events)
            try await harness.ingestAll(dataset.placesEvents, key: AnalyticsTestHarness.placesKey)
            #expect(try await harness.waitForDownloads(dataset.downloads))
            // The poll's and survey's events are on the topic too.
            let voter = try await harness.userToken()
            let (voted, _) = try await harness.request(
                .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: voter)
            #expect(voted == .created)
            #expect(try await eventually { try await harness.stats("/v1/poll/results")["questions"][0]["yes"].int == 1 })
            // A guest's survey: two services (one below good) and the overall rating.
            let guest = UUID()
            let guestToken = try await harness.userToken(guest.uuidString)
            try await harness.registerSurveyAccount(guest)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: guestToken).0 == .ok })
            for (service, answers) in [("rooms", Array(repeating: "excellent", count: 5)), ("spa-pool", ["good", "good", "fair", "poor", "poor"])] {
                #expect(
                    try await harness.request(.post, "/v1/survey/services/\(service)", json: ["answers": answers], bearer: guestToken).0 == .created)
            }
            #expect(
                try await harness.request(.post, "/v1/survey/services/spa-pool/why", json: ["why": "Cold water."], bearer: guestToken).0 == .noContent
            )
            #expect(try await harness.request(.post, "/v1/survey/overall", json: ["stars": 4], bearer: guestToken).0 == .created)
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey")["overall"]["submissions"].int == 1 })
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey/reasons")["total"].int == 1 })
            let before = try await AnalyticsAggregateTests.snapshot(harness)
            #expect(before.contains { $0.hasPrefix("/v1/admin/stats/survey") && $0.contains(#""submissions":1"#) }, "\(before)")
            #expect(before.contains { $0.hasPrefix("/v1/admin/stats/survey/reasons") && $0.contains("Cold water.") }, "kept through the rebuild")

            let downloadsBefore = try await harness.stats("/v1/admin/stats/downloads?pageSize=100")

            // Events arrive during the rebuild: 30 more installs, in batches, while it runs. A second rebuild
            // started meanwhile is refused (one at a time).
            let lines = LineCollector()
            async let rebuilt: Void = Rebuild(environment: harness.environment, logger: Logger(label: "rebuild-test")) { lines.append($0) }.run()
            #expect(try await eventually { lines.all.contains { $0.contains("started") } })
            await #expect(throws: RebuildError.self) {
                try await Rebuild(environment: harness.environment, logger: Logger(label: "rebuild-test-2")) { _ in }.run()
            }
            for _ in 0..<3 {
                try await harness.ingestAll((0..<10).map { _ in AnalyticsTestHarness.event("install", platform: "web") })
                try await Task.sleep(for: .milliseconds(300))
            }
            try await rebuilt
            #expect(lines.all.contains { $0.contains("switched to generation 2") }, "\(lines.all)")
            #expect(lines.all.contains { $0.contains("events applied") })
            #expect(try await harness.count("SELECT id FROM generations WHERE state = 'current'") == 2)
            #expect(try await harness.count("SELECT count(*)::int FROM downloads_daily WHERE generation = 1") == 0)

            // Live keeps applying to the new generation; once the 30 count, every page is as the live path had
            // it, plus those 30 installs.
            #expect(try await harness.waitForDownloads(dataset.downloads + 30))
            let after = try await AnalyticsAggregateTests.snapshot(harness)
            for (old, new) in zip(before, after) where !old.hasPrefix("/v1/admin/stats/home") && !old.hasPrefix("/v1/admin/stats/downloads") {
                #expect(old == new)
            }
            let home = try await harness.stats("/v1/admin/stats/home")
            #expect(home["downloads"]["total"].int == dataset.downloads + 30)
            #expect(home["poll"][0]["yes"].int == 1)
            // Every day/app/platform row as before, today's web installs of the weather app 30 more.
            func rows(_ page: JSONValue) -> [String: Int] {
                Dictionary(
                    uniqueKeysWithValues: page["items"].array.map {
                        ("\($0["day"].string ?? "") \($0["app"].string ?? "") \($0["platform"].string ?? "")", $0["count"].int ?? 0)
                    })
            }
            var expected = rows(downloadsBefore)
            let today = Date().formatted(Date.ISO8601FormatStyle().year().month().day())
            expected["\(today) weather web", default: 0] += 30
            #expect(rows(try await harness.stats("/v1/admin/stats/downloads?pageSize=100")) == expected)
        }
    }

    @Test("N6: after the broker lost its log, a rebuild refuses to switch to smaller numbers and says why; told to, it switches")
    func rebuildFromShorterLogRefused() async throws {
        // A broker of the test's own: it keeps its log in memory, so a restart loses every event, as the local
        // stack's broker does.
        let broker = BrokerProcess(port: freePort())
        try broker.start()
        defer { broker.stop() }
        try await AnalyticsTestHarness.run(brokers: broker.address) { harness in
            try await harness.ingestAll((0..<40).map { _ in AnalyticsTestHarness.event("install", platform: "ios") })
            #expect(try await harness.waitForDownloads(40))

            broker.stop()
            try broker.start()
            let topics = ["ANALYTICS_TELEMETRY_TOPIC", "ANALYTICS_USERS_TOPIC", "ANALYTICS_USER_CITIES_TOPIC"].compactMap {
                harness.environment.string($0)
            }
            try await createTopics(topics, partitions: 3, brokers: broker.address)
            // Until the producer reaches the restarted broker ingest answers 503 "send the batch again", as an app
            // is told; the ids make a batch sent twice count once.
            let late = (0..<10).map { _ in AnalyticsTestHarness.event("install", platform: "android") }
            #expect(try await eventually(timeout: .seconds(60)) { try await harness.ingest(late).0 == .accepted })
            #expect(try await harness.waitForDownloads(50, timeout: .seconds(120)), "the live consumer reads the new log")

            let refused = LineCollector()
            let error = await #expect(throws: RebuildError.self) {
                try await Rebuild(environment: harness.environment, logger: Logger(label: "rebuild-short")) { refused.append($0) }.run()
            }
            let reason = error?.description ?? ""
            #expect(reason.contains("not switching to generation 2"), "\(reason)")
            #expect(reason.contains("the live generation applied 50 events, this rebuild read 10"), "\(reason)")
            #expect(reason.contains("--allow-shorter-log"), "\(reason)")
            #expect(!refused.all.contains { $0.contains("switched") }, "\(refused.all)")
            // Nothing changed for the dashboard, and the refused generation is gone.
            #expect(try await harness.count("SELECT id FROM generations WHERE state = 'current'") == 1)
            #expect(try await harness.count("SELECT count(*)::int FROM generations WHERE state = 'building'") == 0)
            #expect(try await harness.count("SELECT count(*)::int FROM downloads_daily WHERE generation = 2") == 0)
            #expect(try await harness.waitForDownloads(50, timeout: .seconds(5)))

            // Told to, it switches to what the log holds now.
            let allowed = LineCollector()
            try await Rebuild(environment: harness.environment, logger: Logger(label: "rebuild-allowed"), allowShorterLog: true) {
                allowed.append($0)
            }.run()
            #expect(allowed.all.contains { $0.contains("switching anyway") }, "\(allowed.all)")
            #expect(allowed.all.contains { $0.contains("switched to generation 3") }, "\(allowed.all)")
            #expect(try await harness.waitForDownloads(10, timeout: .seconds(10)))

            // A generation that counted events before the tally began (upgraded from before migration 0005) cannot
            // be compared with: the rebuild refuses to start unless told to.
            #expect(try await harness.count("UPDATE generations SET reads_complete = false WHERE state = 'current' RETURNING 1") == 1)
            let untallied = await #expect(throws: RebuildError.self) {
                try await Rebuild(environment: harness.environment, logger: Logger(label: "rebuild-untallied")) { _ in }.run()
            }
            #expect(untallied?.description.contains("not rebuilding: generation 3 counted events before") == true, "\(String(describing: untallied))")
            #expect(try await harness.count("SELECT count(*)::int FROM generations WHERE state = 'building'") == 0)
        }
    }
}

/// Lines a rebuild printed, collected across tasks.
final class LineCollector: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
