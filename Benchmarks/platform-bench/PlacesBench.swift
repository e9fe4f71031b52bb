import Foundation
import Logging
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// places-importer measured as it runs: the release binary, throw-away Postgres (PostGIS) and the broker, and
/// a fake Overpass on loopback whose tile answers are prepared beforehand.
/// - import: `places` places over `tiles` tiles, timed from the service being ready until the area's run
///   finished and every event was acknowledged by the broker.
/// - nearby: wrk on a radius query among those places vs `/health` of the same process, then the same query
///   on a second process that asks PostGIS per request instead of its in-memory index.
struct PlacesBench: ServiceBench {
    let binary: String
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let places: Int
    let loadSeconds: Int
    let connections: Int

    struct Results: Sendable {
        var importPlacesPerSecond = 0.0
        var nearby: LoadResult?
        var health: LoadResult?
        /// The same query with `PLACES_NEARBY_SOURCE=postgis`: a second process on the same database.
        var nearbyPostGIS: LoadResult?
    }

    /// A 1° × 1° area around Berlin in 0.1° tiles: 100 tiles.
    static let area = (south: 52.0, west: 13.0, north: 53.0, east: 14.0)
    static let tileDegrees = 0.1

    func run() async throws -> Results {
        let logger = Logger(label: "bench")
        let answers = prepareAnswers()
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_places")
        let topics = ServiceTopics(["PLACES_TOPIC": "places"], prefix: "bench")
        try await topics.create(partitions: 6, brokers: brokers)
        let tokens = try TestTokens()
        var signed: [String] = []
        for index in 0..<200 { signed.append(try await tokens.token(userId: "bench-user-\(index)")) }
        let users = signed
        let measured = try await withFakeHTTPServer({ request in
            guard let box = Self.box(inQuery: request.body.removingPercentEncoding ?? ""), let body = answers[box] else {
                return .init(status: 400, body: #"{"remark":"unknown tile"}"#)
            }
            return .init(body: body)
        }) { fake -> Results in
            var results = Results()
            let port = freePort()
            let a = Self.area
            let environment = serviceEnvironment(database: database, tokens: tokens).variables(
                httpPort: "\(port)",
                [
                    "PLACES_OVERPASS_BASE_URL": fake.baseURL, "PLACES_TOPIC": topics["PLACES_TOPIC"], "PLACES_TILE_MILLIDEGREES": "100",
                    "PLACES_PROVIDER_REQUESTS_PER_SECOND": "10000", "LOG_LEVEL": "warning",
                ])
            let service = try startService(
                binary: binary,
                environment: environment.merging([
                    "PLACES_IMPORT_AREAS": "bench:\(a.south),\(a.west),\(a.north),\(a.east)", "PLACES_IMPORT_TICK_MS": "20",
                ]) { $1 })
            defer { service.stop() }
            progress("places-importer importing \(places) places in \(answers.count) tiles")
            try await service.waitReady(port: port)
            let started = ContinuousClock.now
            let configuration = databases.configuration(database: database, schema: "places_importer")
            try await withRunningClient(configuration.makeClient(logger: logger)) { client in
                while true {
                    let runs = try await queryInt(client, "SELECT coalesce(sum(runs), 0)::int FROM import_areas")
                    let unsent = try await queryInt(client, "SELECT count(*) FROM outbox WHERE sent_at IS NULL")
                    if runs >= 1 && unsent == 0 { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let status =
                    try await client.query("SELECT coalesce(last_error, 'ok') FROM import_areas", logger: logger)
                    .decode(String.self).collectAll().first ?? "?"
                guard status == "ok" else { throw BenchError("the bench import failed: \(status)") }
            }
            results.importPlacesPerSecond = Double(places) / (ContinuousClock.now - started).seconds
            let url = "http://127.0.0.1:\(port)/v1/places?lat=52.52&lon=13.40&radius=1000&pageSize=50"
            progress("wrk: \(loadSeconds) s on the nearby query, then \(loadSeconds) s on /health, \(connections) connections")
            results.nearby = try LoadResult.wrk(url: url, seconds: loadSeconds, connections: connections, bearerTokens: users)
            results.health = try LoadResult.wrk(url: "http://127.0.0.1:\(port)/health", seconds: loadSeconds, connections: connections)
            service.stop()
            let postgisPort = freePort()
            let postgis = try startService(
                binary: binary, environment: environment.merging(["HTTP_PORT": "\(postgisPort)", "PLACES_NEARBY_SOURCE": "postgis"]) { $1 })
            defer { postgis.stop() }
            try await postgis.waitReady(port: postgisPort)
            progress("wrk: \(loadSeconds) s on the nearby query answered by PostGIS per request")
            results.nearbyPostGIS = try LoadResult.wrk(
                url: url.replacingOccurrences(of: ":\(port)/", with: ":\(postgisPort)/"), seconds: loadSeconds, connections: connections,
                bearerTokens: users)
            return results
        }
        try await databases.dropDatabase(database)
        return measured
    }

    /// One Overpass answer per tile, `places / tiles` cafés spread over each tile, keyed by the tile's box as
    /// the importer writes it in its query.
    private func prepareAnswers() -> [String: String] {
        let a = Self.area
        // The same arithmetic as the service's GeoBox.tiles, so the boxes match its queries digit for digit.
        let rows = max(1, Int(((a.north - a.south) / Self.tileDegrees - 1e-9).rounded(.up)))
        let columns = max(1, Int(((a.east - a.west) / Self.tileDegrees - 1e-9).rounded(.up)))
        let height = (a.north - a.south) / Double(rows)
        let width = (a.east - a.west) / Double(columns)
        let perTile = places / (rows * columns)
        let side = Int(Double(perTile).squareRoot().rounded(.up))
        var answers: [String: String] = [:]
        var id = 1
        for row in 0..<rows {
            for column in 0..<columns {
                let south = a.south + Double(row) * height
                let west = a.west + Double(column) * width
                let north = row == rows - 1 ? a.north : a.south + Double(row + 1) * height
                let east = column == columns - 1 ? a.east : a.west + Double(column + 1) * width
                var elements: [String] = []
                for index in 0..<perTile {
                    let latitude = south + (Double(index / side) + 0.5) * (north - south) / Double(side)
                    let longitude = west + (Double(index % side) + 0.5) * (east - west) / Double(side)
                    elements.append(
                        #"{"type":"node","id":\#(id),"lat":\#(latitude),"lon":\#(longitude),"tags":{"amenity":"cafe","name":"Cafe \#(id)","opening_hours":"Mo-Fr 08:00-18:00"}}"#
                    )
                    id += 1
                }
                let key = String(format: "%.6f,%.6f,%.6f,%.6f", south, west, north, east)
                answers[key] = #"{"version":0.6,"generator":"bench","elements":[\#(elements.joined(separator: ","))]}"#
            }
        }
        return answers
    }

    /// The first `(s,w,n,e)` box in an Overpass QL query.
    static func box(inQuery query: String) -> String? {
        guard let open = query.range(of: "\"name\"]("), let close = query[open.upperBound...].firstIndex(of: ")") else { return nil }
        return String(query[open.upperBound..<close])
    }
}
