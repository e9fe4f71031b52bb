import Foundation
import PlatformCore
import TestSupport

/// The whole stack under an open-loop load: the six services started as docker-compose starts them
/// (`scripts/compose-smoke.py --serve`, against the bench's Postgres and broker), the providers faked on loopback
/// inside this process, app sessions (`StackSession`) arriving at a fixed rate, stepped up until a step's p99 of
/// any journey step passes the limit or any request fails.
struct StackBench {
    let buildDirectory: String
    let python: String
    let cataloguePath: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let brokers: String
    let rates: [Int]
    let stepSeconds: Int
    let users: Int
    let cityCount: Int
    let bookingEvery: Int
    let p99LimitMilliseconds: Double
    /// Settings given to every service on top of the bench's own (`--stack-setting`).
    var extraSettings: [String: String] = [:]

    struct Results: Sendable {
        var steps: [OpenLoopLoad.Step] = []
        /// The index in `steps` of the highest rate that held, if any did.
        var sustained: Int?
        var stopReason = ""
        var idle: [String: StackProcesses.Sample] = [:]
        var idleWindow: [String: StackProcesses.Sample] = [:]
        /// Samples before and after each step.
        var before: [[String: StackProcesses.Sample]] = []
        var after: [[String: StackProcesses.Sample]] = []
        var lagAfterSustained: [String: Int] = [:]
        var lagAtEnd: [String: Int] = [:]
        var notes: [String] = []
    }

    /// The area the fake Overpass fills and places-importer imports at start (one 0.1° tile in Berlin).
    static let area = (south: 52.45, west: 13.35, north: 52.55, east: 13.45)
    static let adminEmail = "admin@bench.test"

    func run() async throws -> Results {
        let catalogue = try CatalogueRows(path: cataloguePath)
        let cities = catalogue.rows.sorted { $0.population > $1.population }.prefix(cityCount).map(\.id)
        let adminPassword = "bench-\(uniqueSuffix())-Admin9"
        return try await withFakeHTTPServer({ request in
            guard request.path == "/v1/forecast" else { return .init(status: 404, body: "{}") }
            return .init(body: OpenMeteoFake.answer(toQuery: request.query))
        }) { openMeteo in
            try await withFakeHTTPServer(StackProviderFakes.overpass) { places in
                let settings = [
                    "OPEN_METEO_BASE_URL": openMeteo.baseURL, "PLACES_OVERPASS_BASE_URL": places.baseURL,
                    "PLACES_NOMINATIM_BASE_URL": places.baseURL, "PLACES_YELP_BASE_URL": places.baseURL,
                    "PLACES_IMPORT_AREAS": "bench:\(Self.area.south),\(Self.area.west),\(Self.area.north),\(Self.area.east)",
                    "BOOTSTRAP_ADMIN_EMAIL": Self.adminEmail, "BOOTSTRAP_ADMIN_PASSWORD": adminPassword,
                    // Every session's requests come from this one address; the first views of the bench's cities
                    // all refresh on demand.
                    "ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS": "1000000",
                ].merging(extraSettings) { $1 }
                return try await withStack(settings: settings) { stack, processes in
                    try await measure(stack: stack, processes: processes, cities: cities, adminPassword: adminPassword)
                }
            }
        }
    }

    private func measure(stack: StackAddresses, processes: StackProcesses, cities: [Int], adminPassword: String) async throws -> Results {
        var results = Results()
        let http = StackHTTP.make(connectionsPerService: 1_024)
        do {
            let setup = StackSetup(http: http, stack: stack, users: users, adminEmail: Self.adminEmail, adminPassword: adminPassword)
            progress("stack: \(users) phones, each with an install account per app from auth")
            var people = try await setup.installs()
            let admin = try await setup.adminToken()
            // A slot for every booking session of every step, up to the 3 live bookings with one partner that
            // appointment-booker allows an account (BOOKINGS_LIVE_PER_USER_PER_PARTNER); past that, sessions do not book.
            let wanted = rates.reduce(0) { $0 + $1 * stepSeconds } / bookingEvery + 1
            let bookings = min(wanted, 3 * users)
            progress("stack: a listed fortune teller with \(bookings) free slots; the booking feature granted to the horoscope installs")
            let (partnerId, slots) = try await setup.bookablePartner(admin: admin, slotsWanted: bookings)
            if slots.count < wanted { results.notes.append("\(slots.count) bookable slots for up to \(wanted) booking sessions") }
            people = try await setup.grantBooking(to: people, admin: admin)
            progress("stack: weather of \(cities.count) cities, places of the bench area")
            try await setup.warmWeather(cities: cities)
            let points = Self.points
            try await setup.warmPlaces(points: points, token: people[0].places.accessToken)
            var renewed = ContinuousClock.now
            progress("stack: idle for 10 s (the services' start-up work settles), then sampled for 5 s")
            try await Task.sleep(for: .seconds(10))
            results.idleWindow = processes.sample()
            try await Task.sleep(for: .seconds(5))
            results.idle = processes.sample()
            var firstIndex = 0
            let nextSlot = StackSession.SlotCounter()
            var slotsRanOut = false
            for rate in rates {
                // Access tokens live 15 minutes: renewed outside the measured steps.
                if ContinuousClock.now - renewed > .seconds(600) {
                    people = try await setup.renewAll(people)
                    renewed = .now
                }
                let session = StackSession(
                    http: http, stack: stack, people: people, cities: cities, points: points, partnerId: partnerId, slots: slots,
                    bookingEvery: bookingEvery, nextSlot: nextSlot)
                progress("stack: \(rate) sessions/s for \(stepSeconds) s")
                results.before.append(processes.sample())
                let step = await OpenLoopLoad.run(rate: rate, seconds: stepSeconds, firstIndex: firstIndex) { index, intended, recorder in
                    await session.run(index, intended: intended, recorder: recorder)
                }
                results.after.append(processes.sample())
                firstIndex += rate * stepSeconds
                results.steps.append(step)
                if session.slotsRanOut && !slotsRanOut {
                    results.notes.append("the bookable slots ran out at \(rate) sessions/s: later sessions did not book")
                    slotsRanOut = true
                }
                if let reason = failure(of: step) {
                    results.stopReason = "\(rate) sessions/s: \(reason)"
                    break
                }
                results.sustained = results.steps.count - 1
                results.lagAfterSustained = await processes.consumerLag(http: http)
            }
            results.lagAtEnd = await processes.consumerLag(http: http)
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
        return results
    }

    /// Why a step did not hold: an error, or a journey step's p99 over the limit.
    func failure(of step: OpenLoopLoad.Step) -> String? {
        if step.errorCount > 0 {
            return "\(step.errorCount) failed requests (\(step.errorSamples.joined(separator: "; ")))"
        }
        for name in StackSession.steps {
            if let p99 = step.p(name, 0.99), p99 > p99LimitMilliseconds {
                return "p99 of \(name) " + String(format: "%.1f ms > %.0f ms", p99, p99LimitMilliseconds)
            }
        }
        return nil
    }

    /// Twenty points inside the bench area, at least 1 km from its edges.
    static let points: [(lat: Double, lon: Double)] = (0..<20).map { (index: Int) -> (lat: Double, lon: Double) in
        let lat = 52.465 + Double(index % 5) * 0.0175
        let lon = 13.37 + Double(index / 5) * 0.02
        return (lat: lat, lon: lon)
    }

    /// Starts the stack with `settings` in its .env, finds its processes, runs `body`, stops it (every service must
    /// end with exit code 0 on SIGTERM; a failure there is reported, not thrown, once `body` has measured).
    private func withStack(
        settings: [String: String], _ body: (StackAddresses, StackProcesses) async throws -> Results
    ) async throws -> Results {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("stack-bench-\(uniqueSuffix()).json")
        let logURL = URL(fileURLWithPath: buildDirectory).appendingPathComponent("stack-bench.log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else { throw BenchError("cannot write \(logURL.path)") }
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let stack = ChildProcess()
        stack.executableURL = URL(fileURLWithPath: python)
        stack.arguments =
            ["scripts/compose-smoke.py", buildDirectory, "--serve", state.path]
            + settings.sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
        // compose-smoke.py reads the bench's Postgres and broker from the test command's variables.
        stack.environment = ProcessInfo.processInfo.environment.merging([
            "TEST_POSTGRES_HOST": postgresHost, "TEST_POSTGRES_PORT": "\(postgresPort)", "TEST_POSTGRES_USER": postgresUser,
            "TEST_KAFKA_BROKERS": brokers,
        ]) { $1 }
        stack.standardOutput = log
        stack.standardError = log
        progress("stack: starting the six services as docker-compose.yml does (log: \(logURL.path))")
        try stack.run()
        defer { try? FileManager.default.removeItem(at: state) }
        var results: Results
        do {
            let addresses = try await waitForState(state, of: stack, log: logURL)
            let processes = try StackProcesses(
                stackPid: stack.processIdentifier, postgresPort: postgresPort,
                brokerPort: Int(brokers.split(separator: ":").last ?? "") ?? 0)
            results = try await body(addresses, processes)
        } catch {
            stack.terminate()
            await Task.detached { stack.waitUntilExit() }.value
            throw error
        }
        stack.terminate()
        await Task.detached { stack.waitUntilExit() }.value
        if stack.terminationStatus != 0 {
            results.notes.append("the stack did not stop cleanly (compose-smoke.py exit \(stack.terminationStatus); log: \(logURL.path))")
        }
        return results
    }

    private func waitForState(_ state: URL, of stack: ChildProcess, log: URL) async throws -> StackAddresses {
        struct State: Decodable {
            var services: [String: String]
            var telemetryKeys: [String: String]
        }
        let deadline = ContinuousClock.now + .seconds(240)
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: state.path) {
                let decoded = try JSONDecoder().decode(State.self, from: data)
                func address(_ name: String) throws -> String {
                    guard let url = decoded.services[name] else { throw BenchError("the stack named no address for \(name)") }
                    return url
                }
                return StackAddresses(
                    weather: try address("weather-fetcher"), warnings: try address("warning-detector"), places: try address("places-importer"),
                    auth: try address("auth"), analytics: try address("analytics-aggregator"), appointments: try address("appointment-booker"),
                    telemetryKeys: decoded.telemetryKeys)
            }
            guard stack.isRunning else { throw BenchError("the stack exited with \(stack.terminationStatus) before it was ready (log: \(log.path))") }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw BenchError("the stack was not ready in 240 s (log: \(log.path))")
    }
}
