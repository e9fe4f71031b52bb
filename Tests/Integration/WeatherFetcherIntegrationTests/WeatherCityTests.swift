import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// City search, nearest city, recents and favourites through the real service (W1, W2, W7, W8).
@Suite("weather-fetcher: cities, recents, favourites")
struct WeatherCityTests {
    static func names(_ body: Any) -> [String] {
        JSONValue(body)["cities"].array.compactMap { $0["name"].string }
    }

    @Test("W1: prefix search ignores case and accents, sorts alphabetically, pages, and answers [] for unknown names")
    func search() async throws {
        try await WeatherTestHarness.run { weather in
            var (status, body) = try await weather.get("/v1/cities?q=ber")
            #expect(status == .ok)
            #expect(Self.names(body) == ["Bergen", "Berlin", "Bern"])
            (_, body) = try await weather.get("/v1/cities?q=Z%C3%9CR")  // "ZÜR"
            #expect(Self.names(body) == ["Zürich"])
            (_, body) = try await weather.get("/v1/cities?q=lod")
            #expect(Self.names(body) == ["Łódź"])
            (_, body) = try await weather.get("/v1/cities?q=s")
            #expect(Self.names(body) == ["San Jose", "San José", "São Paulo", "Suva", "Sydney"])
            (_, body) = try await weather.get("/v1/cities?q=s&pageSize=2&page=2")
            #expect(Self.names(body) == ["São Paulo", "Suva"])
            #expect(JSONValue(body)["hasMore"].bool == true)
            (_, body) = try await weather.get("/v1/cities?q=s&pageSize=2&page=3")
            #expect(Self.names(body) == ["Sydney"] && JSONValue(body)["hasMore"].bool == false)
            (status, body) = try await weather.get("/v1/cities?q=atlantis")
            #expect(status == .ok && Self.names(body).isEmpty)
            // Without q: every city, alphabetically, a page at a time (the list to choose from).
            (status, body) = try await weather.get("/v1/cities?pageSize=100")
            let all = Self.names(body)
            let catalogued = try await weather.count("SELECT count(*) FROM cities")
            #expect(status == .ok && all.count == catalogued && all.contains("Łódź"))
            #expect(zip(all, all.dropFirst()).allSatisfy { SearchKey.fold($0) <= SearchKey.fold($1) }, "alphabetical as search folds names")
            (status, body) = try await weather.get("/v1/cities?pageSize=3&page=2")
            #expect(Self.names(body) == Array(all[3..<6]))
        }
    }

    @Test("X3, W1: a search Postgres cancels at CITY_SEARCH_STATEMENT_TIMEOUT_MS answers 422 search_too_broad, not a 5xx")
    func searchThatWouldTimeOut() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["CITY_SEARCH_STATEMENT_TIMEOUT_MS": "300"]) { weather in
            #expect(try await weather.get("/v1/cities?q=ber").0 == .ok)
            // A search that cannot finish in time: the catalogue held by another transaction stands in for one that
            // would read too much (statement_timeout counts the wait too).
            try await weather.db.client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: weather.db.logger)
                _ = try await connection.query("LOCK TABLE weather_fetcher.cities IN ACCESS EXCLUSIVE MODE", logger: weather.db.logger)
                let (status, body) = try await weather.get("/v1/cities?q=lod")
                _ = try await connection.query("ROLLBACK", logger: weather.db.logger)
                #expect(status == .unprocessableContent, "\(body)")
                #expect("\(body)".contains("search_too_broad"))
            }
            #expect(try await weather.get("/v1/cities?q=ber").0 == .ok, "the search pool is usable again")
        }
    }

    @Test("W1: other names find a city (GeoNames' alternate names), sorted by the city's own name, naming the match")
    func alternateNames() async throws {
        try await WeatherTestHarness.run { weather in
            var (status, body) = try await weather.get("/v1/cities?q=zurig")
            #expect(status == .ok && Self.names(body) == ["Zürich"])
            #expect(JSONValue(body)["cities"].array.first?["matchedName"].string == "Zurigo")
            (_, body) = try await weather.get("/v1/cities?q=%D1%86%D1%8E%D1%80")  // "цюр": other scripts too
            #expect(Self.names(body) == ["Zürich"])
            (_, body) = try await weather.get("/v1/cities?q=LODSCH")
            #expect(Self.names(body) == ["Łódź"])
            (_, body) = try await weather.get("/v1/cities?q=lod")
            #expect(Self.names(body) == ["Łódź"], "found by its own name and an alternate: listed once")
            #expect(JSONValue(body)["cities"].array.first?["matchedName"].string == nil, "its own name matched")
            (_, body) = try await weather.get("/v1/cities?q=rlin&match=contains")
            #expect(Self.names(body) == ["Berlin"])
            // Berlin's other names start with "ber" too: each city still comes once, by its own name, in order.
            (_, body) = try await weather.get("/v1/cities?q=ber")
            #expect(Self.names(body) == ["Bergen", "Berlin", "Bern"])
            #expect(JSONValue(body)["cities"].array.allSatisfy { $0["matchedName"].string == nil })
            // Łódź's own name and two of its other names start with "l": one result.
            (_, body) = try await weather.get("/v1/cities?q=l")
            #expect(Self.names(body) == ["Łódź"])
        }
    }

    @Test("W1: patterns with * and ?, and 'contains' matching")
    func patterns() async throws {
        try await WeatherTestHarness.run { weather in
            var (_, body) = try await weather.get("/v1/cities?q=s*o")
            #expect(Self.names(body) == ["San Jose", "San José", "São Paulo"])
            (_, body) = try await weather.get("/v1/cities?q=ber?")
            #expect(Self.names(body) == ["Bergen", "Berlin", "Bern"])
            (_, body) = try await weather.get("/v1/cities?q=ern&match=contains")
            #expect(Self.names(body) == ["Bern"])
            (_, body) = try await weather.get("/v1/cities?q=50%25&match=contains")
            #expect(Self.names(body).isEmpty, "% is a literal, not a wildcard")
        }
    }

    @Test("X3: a search that could match anywhere needs three letters; searches past the per-address quota are 429")
    func searchLimits() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["CITY_SEARCHES_PER_MINUTE_PER_ADDRESS": "4"]) { weather in
            try await waitForRoomInTheMinute()
            var (status, body) = try await weather.get("/v1/cities?q=er&match=contains")
            #expect(status == .unprocessableContent && JSONValue(body)["error"]["code"].string == "query_too_short")
            (status, body) = try await weather.get("/v1/cities?q=*e")
            #expect(status == .unprocessableContent && JSONValue(body)["error"]["code"].string == "query_too_short")
            (status, _) = try await weather.get("/v1/cities?q=ern&match=contains")
            #expect(status == .ok)
            (status, _) = try await weather.get("/v1/cities?q=b")
            #expect(status == .ok, "a prefix of one letter reads one index range: allowed")
            (status, body) = try await weather.get("/v1/cities?q=ber")
            #expect(status == .tooManyRequests && JSONValue(body)["error"]["code"].string == "rate_limited")
        }
    }

    @Test("X3: a contains search has an index path (trigrams) on both names' tables, never only a scan of every name")
    func containsSearchUsesTrigramIndexes() async throws {
        try await WeatherTestHarness.run { weather in
            let plans = try await weather.db.client.withConnection { connection -> [String] in
                // With sequential scans priced out, the plan shows whether any index can answer the pattern.
                try await connection.query("SET enable_seqscan = off", logger: weather.db.logger)
                var plans: [String] = []
                for table in ["cities", "city_alternate_names"] {
                    let rows = try await connection.query(
                        PostgresQuery(unsafeSQL: "EXPLAIN SELECT * FROM \(table) WHERE search_key LIKE '%ern%'"), logger: weather.db.logger)
                    plans.append(try await rows.decode(String.self).collectAll().joined(separator: "\n"))
                }
                try await connection.query("RESET enable_seqscan", logger: weather.db.logger)
                return plans
            }
            #expect(plans[0].contains("cities_by_search_key_trigrams"), "\(plans[0])")
            #expect(plans[1].contains("city_alternate_names_by_search_key_trigrams"), "\(plans[1])")
        }
    }

    @Test("W2: the nearest city to a coordinate, including across the antimeridian")
    func nearest() async throws {
        try await WeatherTestHarness.run { weather in
            var (status, body) = try await weather.get("/v1/cities/nearest?lat=52.4&lon=13.1")
            #expect(status == .ok && JSONValue(body)["city"]["name"].string == "Berlin")
            let distance = try #require(JSONValue(body)["distanceKm"].double)
            #expect(distance > 15 && distance < 30)
            (_, body) = try await weather.get("/v1/cities/nearest?lat=47.1&lon=7.3")
            #expect(JSONValue(body)["city"]["name"].string == "Bern")
            (_, body) = try await weather.get("/v1/cities/nearest?lat=-18&lon=-179.9")
            #expect(JSONValue(body)["city"]["name"].string == "Suva", "Suva is 1.7° west across the antimeridian")
            (status, body) = try await weather.get("/v1/cities/nearest?lat=0&lon=-30")
            #expect(status == .ok && JSONValue(body)["city"]["name"].string != nil, "mid-ocean still has a nearest city")
        }
    }

    @Test("W7: recents are per user, newest first, without duplicates, capped at 10, empty for a new user")
    func recents() async throws {
        // Twelve cities: the test catalogue has eleven, so Berlin is viewed twice.
        let order = WeatherFixtures.cities.map(\.id) + [WeatherFixtures.berlin.id]
        try await WeatherTestHarness.run { weather in
            let alice = try await weather.token()
            let bob = try await weather.token()
            var (status, body) = try await weather.get("/v1/me/recent-cities", bearer: alice)
            #expect(status == .ok && JSONValue(body)["cities"].count == 0)
            for id in order {
                (status, _) = try await weather.get("/v1/cities/\(id)/weather", bearer: alice)
                #expect(status == .ok)
            }
            (_, body) = try await weather.get("/v1/me/recent-cities", bearer: alice)
            let ids = JSONValue(body)["cities"].array.compactMap { $0["city"]["id"].int }
            let expected = Array(order.reversed().reduce(into: [Int]()) { seen, id in if !seen.contains(id) { seen.append(id) } }.prefix(10))
            #expect(ids == expected)
            #expect(ids.first == WeatherFixtures.berlin.id && Set(ids).count == 10)
            (_, body) = try await weather.get("/v1/me/recent-cities", bearer: bob)
            #expect(JSONValue(body)["cities"].count == 0, "another user's views are not mine")
            // A view without a token is served but remembered for nobody.
            (status, _) = try await weather.get("/v1/cities/\(WeatherFixtures.bern.id)/weather")
            #expect(status == .ok)
            #expect(try await weather.count("SELECT count(*) FROM recent_cities") == 10)
        }
    }

    @Test("W7: signed-in views are written by the background flush, without a read of the recents, in viewing order")
    func backgroundFlush() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["WEATHER_RECENT_VIEWS_FLUSH_MS": "50"]) { weather in
            let user = try await weather.token()
            let viewed = [WeatherFixtures.berlin.id, WeatherFixtures.bern.id, WeatherFixtures.suva.id]
            for id in viewed {
                #expect(try await weather.get("/v1/cities/\(id)/weather", bearer: user).0 == .ok)
            }
            #expect(try await eventually { try await weather.count("SELECT count(*) FROM recent_cities") == 3 })
            let (_, body) = try await weather.get("/v1/me/recent-cities", bearer: user)
            #expect(JSONValue(body)["cities"].array.compactMap { $0["city"]["id"].int } == viewed.reversed())
        }
    }

    @Test(
        "W7: a batched write keeps each user's viewing order, the minute rule and the limit, and skips erased accounts, by keyed hash or one from before the key"
    )
    func batchedWriteRules() async throws {
        try await WeatherTestHarness.run { weather in
            let erased = ErasedAccounts(key: .random())
            let store = UserCityStore(client: weather.db.client, logger: weather.db.logger, recentLimit: 2, erased: erased)
            let (berlin, bern, suva) = (WeatherFixtures.berlin.id, WeatherFixtures.bern.id, WeatherFixtures.suva.id)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            func views(_ user: String, _ cities: [(Int, TimeInterval)]) -> UserCityViews {
                UserCityViews(userId: user, views: cities.map { CityView(cityId: $0.0, viewedAt: now + $0.1) })
            }
            try await store.recordViews([views("u1", [(berlin, 0)])])
            // A reload of the newest recent within the minute writes nothing: the first view's time stays.
            try await store.recordViews([views("u1", [(berlin, 30)])])
            #expect(try await store.recents(userId: "u1").map(\.viewedAt) == [now])
            _ = try await weather.count("INSERT INTO erased_accounts (id_hash, keyed) VALUES ('\(erased.storedValue(of: "u3"))', true) RETURNING 1")
            _ = try await weather.count("INSERT INTO erased_accounts (id_hash) VALUES ('\(ErasedAccounts.unkeyedHash(of: "u4"))') RETURNING 1")
            try await store.recordViews([
                views("u1", [(bern, 31), (berlin, 32), (suva, 33)]), views("u2", [(suva, 0)]), views("u3", [(bern, 0)]), views("u4", [(bern, 0)]),
            ])
            #expect(try await store.recents(userId: "u1").map(\.city.id) == [suva, berlin])
            #expect(try await store.recents(userId: "u2").map(\.city.id) == [suva])
            #expect(try await store.recents(userId: "u3").isEmpty, "an erased account's views are not written back")
            #expect(try await store.recents(userId: "u4").isEmpty, "nor those of one erased before the key, while its row is kept")
        }
    }

    @Test("W8, X3: an account keeps at most FAVOURITES_PER_ACCOUNT favourites; past it 422 too_many_favourites, marking one again still 200")
    func favouritesPerAccount() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["FAVOURITES_PER_ACCOUNT": "2"]) { weather in
            let user = try await weather.token()
            for city in [WeatherFixtures.berlin, WeatherFixtures.suva] {
                let (marked, _) = try await weather.request(.put, "/v1/me/favourites/\(city.id)", bearer: user)
                #expect(marked == .ok)
            }
            var (status, body) = try await weather.request(.put, "/v1/me/favourites/\(WeatherFixtures.bern.id)", bearer: user)
            let code = JSONValue(body)["error"]["code"].string
            #expect(status == .unprocessableContent)
            #expect(code == "too_many_favourites")
            (status, _) = try await weather.request(.put, "/v1/me/favourites/\(WeatherFixtures.berlin.id)", bearer: user)
            #expect(status == .ok)  // one already marked is no new one
            let other = try await weather.token()
            (status, _) = try await weather.request(.put, "/v1/me/favourites/\(WeatherFixtures.bern.id)", bearer: other)
            #expect(status == .ok)  // another account has its own
            (status, _) = try await weather.request(.delete, "/v1/me/favourites/\(WeatherFixtures.suva.id)", bearer: user)
            #expect(status == .ok)
            (status, body) = try await weather.request(.put, "/v1/me/favourites/\(WeatherFixtures.bern.id)", bearer: user)
            #expect(status == .ok && JSONValue(body)["isFavourite"].bool == true)
        }
    }

    @Test("W8: favourites toggle: mark, list, mark again (still one), unmark, gone; each change is one event (A4)")
    func favourites() async throws {
        try await WeatherTestHarness.run { weather in
            let user = try await weather.token()
            let berlin = WeatherFixtures.berlin.id
            var (status, body) = try await weather.request(.put, "/v1/me/favourites/\(berlin)", bearer: user)
            #expect(status == .ok && JSONValue(body)["isFavourite"].bool == true)
            (status, _) = try await weather.request(.put, "/v1/me/favourites/\(WeatherFixtures.suva.id)", bearer: user)
            (status, _) = try await weather.request(.put, "/v1/me/favourites/\(berlin)", bearer: user)
            #expect(status == .ok)
            (_, body) = try await weather.get("/v1/me/favourites", bearer: user)
            #expect(Self.names(body) == ["Berlin", "Suva"])
            (_, body) = try await weather.get("/v1/cities/\(berlin)/weather", bearer: user)
            #expect(JSONValue(body)["isFavourite"].bool == true)
            (status, body) = try await weather.request(.delete, "/v1/me/favourites/\(berlin)", bearer: user)
            #expect(status == .ok && JSONValue(body)["isFavourite"].bool == false)
            (_, body) = try await weather.get("/v1/me/favourites", bearer: user)
            #expect(Self.names(body) == ["Suva"])
            (_, body) = try await weather.get("/v1/cities/\(berlin)/weather", bearer: user)
            #expect(JSONValue(body)["isFavourite"].bool == false)
            // Berlin added, Suva added, Berlin removed: the repeated mark published nothing.
            let consumer = try makeConsumer(topics: [weather.userCitiesTopic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let messages = try await collect(4, from: consumer, timeout: .seconds(5))
            await consumer.close()
            let events = try messages.map { try EventCoding.decoder.decode(EventEnvelope<FavouriteChanged>.self, from: Data($0.value)) }
            #expect(events.map(\.type) == [EventTypes.favouriteAdded, EventTypes.favouriteAdded, EventTypes.favouriteRemoved])
            #expect(events.map(\.payload.city.id) == [berlin, WeatherFixtures.suva.id, berlin])
            #expect(events.allSatisfy { $0.key == $0.payload.userId && $0.payload.city.timeZone.contains("/") })
        }
    }

    @Test("X3: bad input to every route is a 4xx JSON error with a stable code")
    func badInput() async throws {
        try await WeatherTestHarness.run { weather in
            let user = try await weather.token()
            // (method, path, status, code, a word the message names: the parameter that did not match)
            let cases: [(String, String, Int, String, String)] = [
                ("GET", "/v1/cities?pageSize=0", 400, "invalid_request", "pageSize"),
                ("GET", "/v1/cities?q=", 400, "invalid_request", "q"),
                ("GET", "/v1/cities?q=ber&pageSize=101", 400, "invalid_request", "pageSize"),
                ("GET", "/v1/cities?q=ber&pageSize=0", 400, "invalid_request", "pageSize"),
                ("GET", "/v1/cities?q=ber&page=-1", 400, "invalid_request", "page"),
                ("GET", "/v1/cities?q=ber&match=regex", 400, "invalid_request", "match"),
                ("GET", "/v1/cities/nearest?lat=1.5e-173&lon=1e-300", 200, "", ""),
                ("GET", "/v1/cities?q=%00", 200, "", ""),
                ("GET", "/v1/cities?q=\(String(repeating: "a", count: 101))", 400, "invalid_request", "q"),
                ("GET", "/v1/cities/nearest?lat=91&lon=0", 400, "invalid_request", "lat"),
                ("GET", "/v1/cities/nearest?lat=10&lon=east", 400, "invalid_request", "lon"),
                ("GET", "/v1/cities/nearest?lat=10", 400, "invalid_request", "missing"),
                ("GET", "/v1/cities/nearest?lat=nan&lon=0", 400, "invalid_request", "lat"),
                ("GET", "/v1/cities/abc", 400, "invalid_request", "cityId"),
                ("GET", "/v1/cities/-5", 400, "invalid_request", "cityId"),
                ("GET", "/v1/cities/99999999999999999999", 400, "invalid_request", "cityId"),
                ("GET", "/v1/cities/123", 404, "city_not_found", "123"),
                ("GET", "/v1/cities/123/weather", 404, "city_not_found", "123"),
                ("GET", "/v1/cities/abc/weather", 400, "invalid_request", "cityId"),
                ("GET", "/v1/cities/2950159/share?kind=poem", 400, "invalid_request", "kind"),
                ("GET", "/v1/cities/2950159/share?kind=forecast&day=5", 400, "invalid_request", "day"),
                ("GET", "/v1/cities/2950159/share?kind=warning", 404, "no_active_warning", "warning"),
                ("GET", "/v1/cities/2950159/share?kind=app", 404, "no_app_link", "WEATHER_APP_LINK"),
                ("GET", "/v1/map?south=10&north=5", 422, "invalid_box", "south"),
                ("GET", "/v1/map?west=-181", 400, "invalid_request", "longitudes"),
                ("GET", "/v1/me/recent-cities", 401, "unauthorized", "token"),
                ("GET", "/v1/me/favourites", 401, "unauthorized", "token"),
                ("PUT", "/v1/me/favourites/2950159", 401, "unauthorized", "token"),
                ("PUT", "/v1/me/favourites/123#user", 404, "city_not_found", "123"),
                ("DELETE", "/v1/me/favourites/x#user", 400, "invalid_request", "cityId"),
                ("POST", "/v1/me/favourites#user", 405, "method_not_allowed", "GET"),
            ]
            for (method, target, expectedStatus, code, mentions) in cases {
                let withUser = target.hasSuffix("#user")
                let path = withUser ? String(target.dropLast(5)) : target
                let (status, body) = try await weather.request(.init(rawValue: method)!, path, bearer: withUser ? user : nil)
                let error = JSONValue(body)["error"]
                let named = code.isEmpty || (error["code"].string == code && error["message"].string?.contains(mentions) == true)
                #expect(status.code == expectedStatus && named, "\(method) \(path): \(status) \(body)")
            }
            let (status, body) = try await weather.get("/v1/cities/2950159/weather", bearer: "not-a-token")
            #expect(status == .unauthorized && JSONValue(body)["error"]["code"].string == "invalid_token")
        }
    }
}
