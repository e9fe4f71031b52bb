import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import WeatherFetcher

/// The real GeoNames catalogue (W1) loads once, completely, and answers searches from its index.
@Suite("weather-fetcher: the GeoNames catalogue")
struct WeatherCatalogueTests {
    @Test("W1: the full catalogue imports every city of at least 15,000 people once; a re-import of the same file is skipped")
    func realCatalogue() async throws {
        let path = try #require(ProcessInfo.processInfo.environment["TEST_CITY_CATALOGUE"], "run the tests with scripts/test.sh")
        let file = try CatalogueFile(contentsOf: URL(fileURLWithPath: path))
        #expect(file.cities.count > 30_000)
        #expect(file.cities.allSatisfy { $0.population >= 15_000 })
        try await withTestDatabase(schema: "weather_fetcher", migrations: weatherFetcherMigrations) { db in
            let store = CityStore(client: db.client, logger: db.logger)
            #expect(try await store.importCatalogue(file) == true)
            #expect(try await store.importCatalogue(file) == false)
            #expect(try await store.count() == file.cities.count)
            let page = try await store.search(try #require(CitySearchPattern(query: "a", contains: false)), limit: 20, offset: 0)
            #expect(page.count == 20)
            #expect(page.map { SearchKey.fold($0.city.asciiName) } == page.map { SearchKey.fold($0.city.asciiName) }.sorted())
            let zurich = try await store.search(try #require(CitySearchPattern(query: "zürich", contains: false)), limit: 5, offset: 0)
            #expect(zurich.first?.city.name == "Zürich" && zurich.first?.city.region == "Zurich")
            // Alternate names (W1): GeoNames calls them Munich and Köln; people type München and Cologne.
            let search = { (query: String) in
                try await store.search(try #require(CitySearchPattern(query: query, contains: false)), limit: 50, offset: 0)
            }
            let muenchen = try await search("Münch")
            #expect(muenchen.contains { $0.city.id == 2_867_714 && $0.city.name == "Munich" && $0.matchedName == "München" })
            let cologne = try await search("cologne")
            #expect(cologne.contains { $0.city.name == "Köln" && $0.matchedName == "Cologne" }, "\(cologne.map(\.city.name))")
            #expect(try await search("köln").first { $0.city.name == "Köln" }?.matchedName == nil, "its own name matched")
            let names = cologne.map { SearchKey.fold($0.city.name) }
            #expect(names == names.sorted(), "sorted by the city's own name")
            let nearest = try await store.nearest(latitude: 48.8566, longitude: 2.3522)
            #expect(nearest?.city.name.hasPrefix("Paris") == true, "GeoNames lists Paris by arrondissement")
            // The one-letter prefix query reads the index, not the table.
            let plan = try await db.client.query(
                "EXPLAIN SELECT id FROM cities WHERE search_key LIKE 'a%' ORDER BY search_key, population DESC, id LIMIT 21",
                logger: db.logger)
            let text = try await plan.decode(String.self).collectAll().joined(separator: "\n")
            #expect(text.contains("Index Only Scan using cities_by_search_key") || text.contains("Index Scan using cities_by_search_key"), "\(text)")
        }
    }
}
