import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The city catalogue in Postgres (W1, W2): import, search by name, lookup, nearest city.
struct CityStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Keeps one- and two-letter searches' pages (the service sets it; tests of the SQL leave it out).
    var shortSearches: ShortSearchCache?
    /// The pool searches run on: its connections carry a `statement_timeout`, so a search anyone can send
    /// never holds a backend for long (nil: `client`).
    var searchClient: PostgresClient?

    static let columns = "id, name, ascii_name, country_code, country, region, latitude, longitude, time_zone, population"
    typealias Row = (Int, String, String, String, String, String, Double, Double, String, Int)

    static func decode(_ row: Row) -> City {
        City(
            id: row.0, name: row.1, asciiName: row.2, countryCode: row.3, country: row.4, region: row.5, latitude: row.6,
            longitude: row.7, timeZone: row.8, population: row.9)
    }

    /// Loads `file` unless a file with the same content was imported before. Several instances may start
    /// together: a transaction-scoped advisory lock lets one import while the others wait, then skip.
    /// Cities are upserted, never deleted, so favourites and recents of a city survive a catalogue update.
    @discardableResult
    func importCatalogue(_ file: CatalogueFile, batchSize: Int = 2_000) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection in
            // Waiting for another instance's import, and the import itself, may take longer than a request may.
            try await connection.tracedQuery("SET LOCAL statement_timeout = 0", logger: logger)
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext('weather-fetcher city catalogue'))", logger: logger)
            let seen = try await connection.tracedQuery(
                "SELECT count(*) FROM catalogue_imports WHERE checksum = \(file.checksum)", logger: logger)
            for try await count in seen.decode(Int.self) where count > 0 { return false }
            // Each batch of cities goes through this table (see `upsert`); it ends with the transaction.
            try await connection.tracedQuery("CREATE TEMP TABLE cities_staged (LIKE cities INCLUDING DEFAULTS) ON COMMIT DROP", logger: logger)
            try await CitySearchIndexes.aroundFirstImport(on: connection, logger: logger) {
                var start = 0
                while start < file.cities.count {
                    let batch = Array(file.cities[start..<min(start + batchSize, file.cities.count)])
                    try await upsert(batch, on: connection)
                    try await replaceAlternateNames(of: batch, with: file.alternateNames, on: connection)
                    start += batchSize
                }
            }
            try await connection.tracedQuery(
                "INSERT INTO catalogue_imports (checksum, city_count) VALUES (\(file.checksum), \(file.cities.count))",
                logger: logger)
            return true
        }
    }

    /// Upserts the batch through the import's staging table `cities_staged`, filled by COPY (binding ten arrays
    /// of values cost more than the insert), so the catalogue's rows still go in with `ON CONFLICT`.
    private func upsert(_ cities: [City], on connection: PostgresConnection) async throws {
        var rows = CopyTextRows()
        for city in cities {
            rows.append([
                String(city.id), city.name, city.asciiName, SearchKey.fold(city.asciiName), city.countryCode, city.country,
                city.region, String(city.latitude), String(city.longitude), city.timeZone, String(city.population),
            ])
        }
        try await connection.copyFrom(
            table: "cities_staged",
            columns: [
                "id", "name", "ascii_name", "search_key", "country_code", "country", "region", "latitude", "longitude",
                "time_zone", "population",
            ],
            logger: logger
        ) { writer in
            try await writer.write(rows.buffer)
        }
        try await connection.tracedQuery(
            """
            INSERT INTO cities (id, name, ascii_name, search_key, country_code, country, region, latitude, longitude,
                                time_zone, population)
            SELECT id, name, ascii_name, search_key, country_code, country, region, latitude, longitude, time_zone, population
            FROM cities_staged
            ON CONFLICT (id) DO UPDATE SET
                name = EXCLUDED.name, ascii_name = EXCLUDED.ascii_name, search_key = EXCLUDED.search_key,
                country_code = EXCLUDED.country_code, country = EXCLUDED.country, region = EXCLUDED.region,
                latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, time_zone = EXCLUDED.time_zone,
                population = EXCLUDED.population
            """,
            logger: logger)
        try await connection.tracedQuery("TRUNCATE cities_staged", logger: logger)
    }

    /// The batch's alternate names become exactly the file's: the old ones of these cities go first. The new
    /// ones go in by COPY: the catalogue has hundreds of thousands, and binding them as arrays cost more than
    /// Postgres' insert.
    private func replaceAlternateNames(of cities: [City], with names: [Int: [String]], on connection: PostgresConnection) async throws {
        try await connection.tracedQuery(
            "DELETE FROM city_alternate_names WHERE city_id = ANY(\(cities.map(\.id))::integer[])", logger: logger)
        var rows = CopyTextRows()
        for city in cities {
            for (key, name) in Self.alternateNames(of: city, from: names[city.id] ?? []) {
                rows.append([String(city.id), key, name])
            }
        }
        guard rows.count > 0 else { return }
        try await connection.copyFrom(table: "city_alternate_names", columns: ["city_id", "search_key", "name"], logger: logger) {
            writer in
            try await writer.write(rows.buffer)
        }
    }

    /// One name per search key, in key order; of names that fold alike the one with accents is kept (München,
    /// not Munchen), and none that folds to the city's own key.
    static func alternateNames(of city: City, from names: [String]) -> [(key: String, name: String)] {
        let own = SearchKey.fold(city.asciiName)
        var byKey: [String: String] = [:]
        for name in names {
            let key = SearchKey.fold(name)
            guard !key.isEmpty, key != own else { continue }
            if let kept = byKey[key], kept.unicodeScalars.contains(where: { !$0.isASCII }) || name.unicodeScalars.allSatisfy(\.isASCII) {
                continue
            }
            byKey[key] = name
        }
        return byKey.sorted { $0.key < $1.key }.map { (key: $0.key, name: $0.value) }
    }

    func count() async throws -> Int {
        let rows = try await client.tracedQuery("SELECT count(*) FROM cities", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// A search result: the city, and the alternate name the query matched when its own name did not.
    struct Match: Sendable, Equatable {
        var city: City
        var matchedName: String?
    }

    /// Cities whose own or alternate names match `pattern`, alphabetically by their own name (ties: larger
    /// city first), one page plus one row so the caller knows whether there is a next page. Listing every
    /// city reads the cities alone, in index order.
    func search(_ pattern: CitySearchPattern, limit: Int, offset: Int) async throws -> [Match] {
        guard let cache = shortSearches, ShortSearchCache.isShort(pattern) else {
            return try await searchDatabase(pattern, limit: limit, offset: offset)
        }
        let key = ShortSearchKey(likePattern: pattern.likePattern, limit: limit, offset: offset)
        if let matches = cache.value(for: key) { return matches }
        let matches = try await searchDatabase(pattern, limit: limit, offset: offset)
        cache.store(matches, for: key)
        return matches
    }

    private func searchDatabase(_ pattern: CitySearchPattern, limit: Int, offset: Int) async throws -> [Match] {
        if pattern == .everything {
            do {
                let rows = try await (searchClient ?? client).tracedQuery(
                    """
                    SELECT \(unescaped: Self.columns) FROM cities
                    ORDER BY search_key, population DESC, id
                    LIMIT \(limit) OFFSET \(offset)
                    """,
                    logger: logger)
                return try await rows.decode(Row.self).collectAll().map { Match(city: Self.decode($0), matchedName: nil) }
            } catch let error as PSQLError where error.sqlState == .queryCanceled {
                throw SearchTooBroad()
            }
        }
        // Both names' indexes answer the pattern; a city found by its own name shows no matched name.
        var matches: [Match] = []
        do {
            let rows = try await (searchClient ?? client).tracedQuery(
                """
                WITH found AS (
                    SELECT id AS city_id, NULL::text AS alternate FROM cities WHERE search_key LIKE \(pattern.likePattern)
                    UNION ALL
                    SELECT city_id, name FROM city_alternate_names WHERE search_key LIKE \(pattern.likePattern)
                ), matched AS (
                    SELECT city_id, CASE WHEN bool_or(alternate IS NULL) THEN NULL ELSE min(alternate) END AS alternate
                    FROM found GROUP BY city_id
                )
                SELECT \(unescaped: Self.columns), m.alternate
                FROM matched m JOIN cities c ON c.id = m.city_id
                ORDER BY c.search_key, c.population DESC, c.id
                LIMIT \(limit) OFFSET \(offset)
                """,
                logger: logger)
            for try await row in rows.decode((Int, String, String, String, String, String, Double, Double, String, Int, String?).self) {
                let city = Self.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9))
                matches.append(Match(city: city, matchedName: row.10))
            }
        } catch let error as PSQLError where error.sqlState == .queryCanceled {
            throw SearchTooBroad()
        }
        return matches
    }

    /// A search Postgres cancelled at the search pool's `statement_timeout`.
    struct SearchTooBroad: Error {}

    func find(id: Int) async throws -> City? {
        let rows = try await client.tracedQuery("SELECT \(unescaped: Self.columns) FROM cities WHERE id = \(id)", logger: logger)
        for try await row in rows.decode(Row.self) { return Self.decode(row) }
        return nil
    }

    /// The nearest city to a point, by great-circle distance (W2). Searches latitude bands of growing
    /// width: a city found within a band is the nearest overall when it is closer than the band's edge,
    /// since every city outside the band is at least that far away. Dense regions answer from the first
    /// narrow band through the latitude index; the widest band is the whole table.
    func nearest(latitude: Double, longitude: Double) async throws -> (city: City, distanceKm: Double)? {
        // Snapped to 1e-9° (0.1 mm): a coordinate like 1.5e-173 made Postgres' float arithmetic underflow
        // (a 500 the fuzzer found), and no city is told apart at that scale.
        let latitude = Self.snapped(latitude), longitude = Self.snapped(longitude)
        for band in [0.25, 1, 4, 16, 64, 180.0] {
            let rows = try await client.tracedQuery(
                """
                SELECT \(unescaped: Self.columns),
                    2 * 6371.0088 * asin(sqrt(
                        power(sin(radians(latitude - \(latitude)) / 2), 2)
                        + cos(radians(\(latitude))) * cos(radians(latitude)) * power(sin(radians(longitude - \(longitude)) / 2), 2)
                    )) AS distance
                FROM cities
                WHERE latitude BETWEEN \(latitude - band) AND \(latitude + band)
                ORDER BY distance, id
                LIMIT 1
                """,
                logger: logger)
            for try await row in rows.decode((Int, String, String, String, String, String, Double, Double, String, Int, Double).self) {
                let city = Self.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9))
                if row.10 <= band * Self.kilometresPerDegreeOfLatitude || band >= 180 { return (city, row.10) }
            }
        }
        return nil
    }

    static func snapped(_ degrees: Double) -> Double {
        (degrees * 1e9).rounded() / 1e9
    }

    static let kilometresPerDegreeOfLatitude = 2 * Double.pi * 6371.0088 / 360
}
