import AppointmentBooker
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformEvents
import PlatformHTTP
import PostgresNIO
import Prometheus
import TestSupport
import Testing

/// Runs the real appointment-booker on a fresh database, with its own `auth.users` and
/// `appointments.bookings` topics on the real broker. Auth's side is played by publishing its events;
/// tokens are minted with the test key, as auth would.
package struct BookingTestHarness: ServiceHarnessing {
    package let core: ServiceHarness
    package var usersTopic: String { topics["APPOINTMENT_USERS_TOPIC"] }
    package var bookingsTopic: String { topics["APPOINTMENT_BOOKINGS_TOPIC"] }
    package var placesTopic: String { topics["APPOINTMENT_PLACES_TOPIC"] }
    /// Where appointment-booker asks places-importer for places of worship (B4).
    package var placeRequestsTopic: String { topics["APPOINTMENT_PLACE_REQUESTS_TOPIC"] }
    /// Where fortune tellers' applications are published for auth (B6).
    package var partnerApplicationsTopic: String { topics["APPOINTMENT_PARTNER_APPLICATIONS_TOPIC"] }

    package static func run(
        extraEnvironment: [String: String] = [:], tokens: TestTokens? = nil, _ body: @Sendable (BookingTestHarness) async throws -> Void
    ) async throws {
        let topics = ServiceTopics([
            "APPOINTMENT_USERS_TOPIC": "users", "APPOINTMENT_BOOKINGS_TOPIC": "bookings", "APPOINTMENT_PLACES_TOPIC": "places",
            "APPOINTMENT_PLACE_REQUESTS_TOPIC": "place-requests", "APPOINTMENT_PARTNER_APPLICATIONS_TOPIC": "partner-applications",
        ])
        let environment = [
            "CONSUMER_MAX_ATTEMPTS": "2",
            "READING_KEY": TestSecrets.readingKey,
            // The next two clock changes (up to a year ahead) must be bookable.
            "APPOINTMENT_HORIZON_DAYS": "400",
        ]
        try await ServiceHarness.run(
            .appointmentBooker, topics: topics, tokens: try tokens ?? TestTokens(), environment: environment, extra: extraEnvironment
        ) { core in
            try await body(BookingTestHarness(core: core))
        }
    }

    // MARK: Auth's events

    @discardableResult
    package func publish<Payload: Codable & Sendable>(
        _ type: EventType, _ payload: Payload, user: UUID, occurredAt: Date = Date(), id: UUID = UUID()
    ) async throws -> EventEnvelope<Payload> {
        let envelope = EventEnvelope(id: id, type: type, occurredAt: occurredAt, producer: "auth", key: user.uuidString, payload: payload)
        try await publish(envelope)
        return envelope
    }

    /// Publishes `envelope` to the users topic, as auth would.
    package func publish<Payload: Codable & Sendable>(_ envelope: EventEnvelope<Payload>) async throws {
        try await core.publish(envelope, to: usersTopic)
    }

    // MARK: HTTP

    package func adminToken() async throws -> String { try await tokens.token(userId: UUID().uuidString, role: .admin) }

    /// A user allowed to book (U6), with a fresh id unless given.
    package func bookerToken(_ user: String = UUID().uuidString, entitlements: [String] = ["contact_fortune_teller"]) async throws -> String {
        try await tokens.token(userId: user, role: .user, entitlements: entitlements)
    }

    package func partnerToken(_ partner: UUID) async throws -> String { try await tokens.token(userId: partner.uuidString, role: .partner) }

    /// Books `startsAt` (ISO 8601) with `partner` as the token's user.
    package func book(_ partner: UUID, _ startsAt: String, bearer: String?, key: String? = nil) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers: HTTPFields = [:]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await request(.post, "/v1/partners/\(partner)/bookings", json: ["startsAt": startsAt], bearer: bearer, headers: headers)
    }

    /// Books with many requests at once over separate connections (AsyncHTTPClient; the test client sends one
    /// request at a time): `requests` pairs of slot and token; each answer's status and error code, in order.
    package func bookConcurrently(
        _ partner: UUID, _ requests: [(slot: String, token: String, key: String?)]
    ) async throws -> [(HTTPResponse.Status, String?, String?)] {
        try await postConcurrently(
            requests.map { request in
                (
                    "/v1/partners/\(partner)/bookings", #"{"startsAt":"\#(request.slot)"}"#, request.token,
                    request.key.map { ["Idempotency-Key": $0] } ?? [:]
                )
            }
        ).map { ($0.0, $0.1["error"]["code"].string, $0.1["id"].string) }
    }

    /// POSTs `body` to `path` `times` times at once over separate connections; each answer's status and `id`.
    package func postConcurrently(_ path: String, body: String, bearer: String, times: Int) async throws -> [(HTTPResponse.Status, String?)] {
        try await postConcurrently(Array(repeating: (path, body, bearer, [:]), count: times)).map { ($0.0, $0.1["id"].string) }
    }

    /// The requests at once, each over a connection of its own (AsyncHTTPClient); each answer, in order.
    package func postConcurrently(
        _ requests: [(path: String, body: String, bearer: String, headers: [String: String])]
    ) async throws -> [(HTTPResponse.Status, JSONValue)] {
        let base = "http://127.0.0.1:\(client.port ?? 0)"
        // Bodies cross the task group as bytes (JSONValue is not Sendable) and are read afterwards.
        let answers = try await withThrowingTaskGroup(of: (Int, HTTPResponse.Status, Data).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    var http = HTTPClientRequest(url: base + request.path)
                    http.method = .POST
                    http.headers.add(name: "Content-Type", value: "application/json")
                    http.headers.add(name: "Authorization", value: "Bearer \(request.bearer)")
                    for (name, value) in request.headers { http.headers.add(name: name, value: value) }
                    http.body = .bytes(ByteBuffer(string: request.body))
                    let response = try await HTTPClient.shared.execute(http, timeout: .seconds(60))
                    return (index, HTTPResponse.Status(code: Int(response.status.code)), Data(buffer: try await response.body.collect(upTo: 1 << 20)))
                }
            }
            var answers = [(HTTPResponse.Status, Data)](repeating: (.ok, Data()), count: requests.count)
            for try await (index, status, body) in group { answers[index] = (status, body) }
            return answers
        }
        return answers.map { ($0.0, JSONValue(try? JSONSerialization.jsonObject(with: $0.1))) }
    }

    /// Deadlocks Postgres detected in the test database so far (its statistics lag up to a second).
    package func deadlocks() async throws -> Int {
        try await count("SELECT deadlocks::int FROM pg_stat_database WHERE datname = current_database()")
    }

    /// A partner as an operator makes one: auth makes the account a partner (its event), the admin adds the
    /// profile, approves it and records the fee, and the partner's availability is set.
    package func listedPartner(
        name: String = "Madame Test", timeZone: String = "Asia/Bangkok", weekly: [[String: Any]] = BookingTestHarness.everyDay(),
        exceptions: [[String: Any]] = [], approved: Bool = true, feePaid: Bool = true
    ) async throws -> UUID {
        let partner = UUID()
        try await publish(EventTypes.userRoleChanged, UserRoleChanged(userId: partner, role: .partner), user: partner)
        #expect(
            try await eventually {
                try await count("SELECT count(*)::int FROM accounts WHERE user_id = '\(partner.uuidString.lowercased())' AND role = 'partner'") == 1
            })
        let admin = try await adminToken()
        var (status, body) = try await request(
            .post, "/v1/admin/partners",
            json: [
                "accountId": partner.uuidString, "name": name, "description": "Tarot and palms", "contact": "+66 2 000 0000",
                "languages": ["th", "en"], "timeZone": timeZone,
            ], bearer: admin)
        #expect(status == .created, "\(body.raw ?? "")")
        (status, body) = try await request(
            .patch, "/v1/admin/partners/\(partner)", json: ["approved": approved, "feeStatus": feePaid ? "paid" : "unpaid"], bearer: admin)
        #expect(status == .ok, "\(body.raw ?? "")")
        (status, body) = try await request(
            .put, "/v1/partners/\(partner)/availability", json: ["weekly": weekly, "exceptions": exceptions], bearer: try await partnerToken(partner))
        #expect(status == .ok, "\(body.raw ?? "")")
        return partner
    }

    /// 09:00-17:00 every day of the week.
    package static func everyDay(_ start: String = "09:00", _ end: String = "17:00") -> [[String: Any]] {
        (1...7).map { ["weekday": $0, "start": start, "end": end] }
    }

    /// The partner's free slots' starts on `from` for `days` days, in zone `tz` when given.
    package func slots(_ partner: UUID, from: String, days: Int = 1, tz: String? = nil) async throws -> [String] {
        var path = "/v1/partners/\(partner)/slots?from=\(from)&days=\(days)"
        if let tz { path += "&tz=\(tz)" }
        let (status, body) = try await request(.get, path)
        #expect(status == .ok, "\(body.raw ?? "")")
        return body["slots"].array.compactMap { $0["startsAt"].string }
    }

    /// A free slot's start from tomorrow on (in the partner's zone), the `index`th.
    package func futureSlot(_ partner: UUID, index: Int = 0, fromDay offset: Int = 1) async throws -> String {
        let day = Date().addingTimeInterval(Double(offset) * 86_400)
        let from = String(ISO8601DateFormatter().string(from: day).prefix(10))
        let starts = try await slots(partner, from: from, days: 3)
        return try #require(starts.count > index ? starts[index] : nil, "no slot \(index) from \(from)")
    }
}
