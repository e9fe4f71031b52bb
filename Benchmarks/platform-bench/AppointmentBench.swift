import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// appointment-booker measured as it runs: the release binary on throw-away Postgres and the broker, with
/// partners made as an operator makes them (auth's role event on the broker, then the admin API).
/// - bookings: `bookings` POSTs, `concurrency` at a time, each on a distinct free slot, by 200 users.
/// - contention: `bookings` POSTs all for one slot: one booking, the rest 409s (conflicts/s).
/// - slot listing: wrk on a week of a partner's free slots vs `/health` of the same process.
struct AppointmentBench: ServiceBench {
    let binary: String
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let bookings: Int
    let concurrency: Int
    let loadSeconds: Int
    let connections: Int

    struct Results: Sendable {
        var bookingsPerSecond = 0.0
        var conflictsPerSecond = 0.0
        var unexpectedAnswers = 0
        var slots: LoadResult?
        var health: LoadResult?
        /// The free daily horoscope, anonymous (B4).
        var horoscope: LoadResult?
        /// Tarot readings made and kept, each a new one (user, cards), `bookings` of them.
        var tarotPerSecond = 0.0
    }

    func run() async throws -> Results {
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_appointments")
        let topics = ServiceTopics(["APPOINTMENT_USERS_TOPIC": "users", "APPOINTMENT_BOOKINGS_TOPIC": "bookings"], prefix: "bench")
        try await topics.create(partitions: 6, brokers: brokers)
        let tokens = try TestTokens()
        var signed: [String] = []
        for _ in 0..<200 { signed.append(try await tokens.token(userId: UUID().uuidString, entitlements: ["contact_fortune_teller"])) }
        let users = signed
        let adminToken = try await tokens.token(userId: UUID().uuidString, role: .admin)
        let port = freePort()
        let service = try startService(
            binary: binary,
            environment: serviceEnvironment(database: database, tokens: tokens).variables(httpPort: "\(port)", topics.byVariable).merging([
                "READING_KEY": UUID().uuidString + UUID().uuidString,
                // A few hundred users book thousands of slots here; the per-user caps are not what is measured.
                "BOOKINGS_LIVE_PER_USER": "10000", "BOOKINGS_LIVE_PER_USER_PER_PARTNER": "10000",
                "APPOINTMENT_HORIZON_DAYS": "730", "KAFKA_START_POSITION": "beginning", "LOG_LEVEL": "warning",
            ]) { $1 })
        defer { service.stop() }
        try await service.waitReady(port: port)
        let base = "http://127.0.0.1:\(port)"
        var results = Results()
        // Partners open around the clock (hourly slots, 744 a month) take the bookings; the listing row reads a
        // partner with ordinary hours, 09:00-18:00 every day (63 slots a week).
        var partners: [UUID] = []
        for index in 0..<max(1, bookings / 2_000 + 1) {
            partners.append(
                try await makePartner(
                    index: index, hours: ("00:00", "24:00"), base: base, adminToken: adminToken, usersTopic: topics["APPOINTMENT_USERS_TOPIC"],
                    tokens: tokens))
        }
        let listed = try await makePartner(
            index: partners.count, hours: ("09:00", "18:00"), base: base, adminToken: adminToken, usersTopic: topics["APPOINTMENT_USERS_TOPIC"],
            tokens: tokens)
        var slots: [(UUID, String)] = []
        for partner in partners {
            var day = Date().addingTimeInterval(86_400)
            while slots.count < bookings + 1, slots.filter({ $0.0 == partner }).count < 2_000 {
                let from = String(ISO8601DateFormatter().string(from: day).prefix(10))
                let answer = try await call(.GET, "\(base)/v1/partners/\(partner)/slots?from=\(from)&days=31")
                let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
                for slot in (object?["slots"] as? [[String: Any]]) ?? [] {
                    if let start = slot["startsAt"] as? String { slots.append((partner, start)) }
                }
                day = day.addingTimeInterval(31 * 86_400)
            }
        }
        guard slots.count > bookings else { throw BenchError("only \(slots.count) free slots for \(bookings) bookings") }
        progress("appointment-booker: \(bookings) bookings of distinct slots, \(concurrency) at a time")
        let distinct = Array(slots.prefix(bookings))
        var started = ContinuousClock.now
        let created = try await runConcurrently(distinct.indices, concurrency: concurrency) { index in
            let (partner, start) = distinct[index]
            return try await book(base: base, partner: partner, start: start, token: users[index % users.count]) == 201
        }
        results.bookingsPerSecond = Double(bookings) / (ContinuousClock.now - started).seconds
        results.unexpectedAnswers += bookings - created
        progress("appointment-booker: \(bookings) bookings of one slot, \(concurrency) at a time")
        let (contendedPartner, contendedStart) = slots[bookings]
        started = ContinuousClock.now
        let contended = try await runConcurrently(0..<bookings, concurrency: concurrency) { index in
            try await book(base: base, partner: contendedPartner, start: contendedStart, token: users[index % users.count]) == 409
        }
        results.conflictsPerSecond = Double(bookings) / (ContinuousClock.now - started).seconds
        results.unexpectedAnswers += bookings - 1 - contended
        let from = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400)).prefix(10))
        progress("wrk: \(loadSeconds) s on a week of free slots, then \(loadSeconds) s on /health, \(connections) connections")
        results.slots = try LoadResult.wrk(
            url: "\(base)/v1/partners/\(listed)/slots?from=\(from)&days=7", seconds: loadSeconds, connections: connections)
        results.health = try LoadResult.wrk(url: "\(base)/health", seconds: loadSeconds, connections: connections)
        progress("wrk: \(loadSeconds) s on the daily horoscope")
        results.horoscope = try LoadResult.wrk(url: "\(base)/v1/horoscope/leo?tz=Asia/Bangkok", seconds: loadSeconds, connections: connections)
        var readers: [String] = []
        for _ in 0..<200 { readers.append(try await tokens.token(userId: UUID().uuidString, entitlements: ["tarot"])) }
        let cardAnswer = try await call(.GET, "\(base)/v1/readings/tarot/cards")
        let deck = ((try JSONSerialization.jsonObject(with: Data(cardAnswer.body.utf8)) as? [String: Any])?["cards"] as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }
        guard deck.count == 78 else { throw BenchError("the deck has \(deck.count) cards") }
        progress("appointment-booker: \(bookings) tarot readings, \(concurrency) at a time")
        let tarotReaders = readers
        started = ContinuousClock.now
        let made = try await runConcurrently(0..<bookings, concurrency: concurrency) { index in
            let cards = (0..<3).map { "\"\(deck[(index + $0) % 78])\"" }.joined(separator: ",")
            return try await call(
                .POST, "\(base)/v1/readings/tarot", body: #"{"cards":[\#(cards)]}"#, token: tarotReaders[index % tarotReaders.count]
            ).status == 201
        }
        results.tarotPerSecond = Double(bookings) / (ContinuousClock.now - started).seconds
        results.unexpectedAnswers += bookings - made
        service.stop()
        try await databases.dropDatabase(database)
        return results
    }

    /// A listed partner: auth's `user.role-changed` on the broker, then the admin adds, approves and records
    /// the fee, and the partner opens `hours` every day.
    func makePartner(
        index: Int, hours: (String, String), base: String, adminToken: String, usersTopic: String, tokens: TestTokens
    ) async throws -> UUID {
        let partner = UUID()
        let event = EventEnvelope(
            type: EventTypes.userRoleChanged, producer: "auth", key: partner.uuidString, payload: UserRoleChanged(userId: partner, role: .partner))
        try await withProducer(brokers: brokers) { producer in
            try await producer.send(KafkaOutgoingMessage(topic: usersTopic, key: event.key, value: try event.encoded()))
        }
        let profile =
            #"{"accountId":"\#(partner)","name":"Bench \#(index)","description":"","contact":"bench","languages":["en"],"timeZone":"Asia/Bangkok"}"#
        let deadline = ContinuousClock.now + .seconds(60)
        while try await call(.POST, "\(base)/v1/admin/partners", body: profile, token: adminToken).status != 201 {
            guard ContinuousClock.now < deadline else { throw BenchError("the partner's role event was not applied") }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = try await call(.PATCH, "\(base)/v1/admin/partners/\(partner)", body: #"{"approved":true,"feeStatus":"paid"}"#, token: adminToken)
        let week = (1...7).map { #"{"weekday":\#($0),"start":"\#(hours.0)","end":"\#(hours.1)"}"# }.joined(separator: ",")
        let answer = try await call(
            .PUT, "\(base)/v1/partners/\(partner)/availability", body: #"{"weekly":[\#(week)],"exceptions":[]}"#,
            token: try await tokens.token(userId: partner.uuidString, role: .partner))
        guard answer.status == 200 else { throw BenchError("availability refused: \(answer.body)") }
        return partner
    }

    func book(base: String, partner: UUID, start: String, token: String) async throws -> Int {
        try await call(.POST, "\(base)/v1/partners/\(partner)/bookings", body: #"{"startsAt":"\#(start)"}"#, token: token).status
    }

    func call(_ method: HTTPMethod, _ url: String, body: String? = nil, token: String? = nil) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
        return (Int(response.status.code), text)
    }

    /// Runs `work` for each index with at most `concurrency` in flight; how many returned true.
    func runConcurrently<Indices: Sequence & Sendable>(
        _ indices: Indices, concurrency: Int, _ work: @escaping @Sendable (Int) async throws -> Bool
    ) async throws -> Int where Indices.Element == Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var iterator = indices.makeIterator()
            var passed = 0
            for _ in 0..<concurrency {
                guard let index = iterator.next() else { break }
                group.addTask { try await work(index) }
            }
            while let result = try await group.next() {
                if result { passed += 1 }
                if let index = iterator.next() { group.addTask { try await work(index) } }
            }
            return passed
        }
    }
}
