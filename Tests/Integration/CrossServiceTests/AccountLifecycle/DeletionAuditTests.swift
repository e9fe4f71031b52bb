import Foundation
import HTTPTypes
import PlatformCore
import PlatformEvents
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// U8, U9, U11 across the six services: one person uses every app, links its installs to one account and deletes it;
/// afterwards every table of every service and every topic kept for good is searched for what named them, and
/// only what the README's "What is kept after a deletion, and why" lists may be found.
@Suite("Account lifecycle: the deletion audit")
struct DeletionAuditTests {
    static let berlin = 2950159, bern = 2661552
    static let name = "Kanya Srisuk", partnerName = "Somchai Wongsawat", email = "kanya.srisuk@hotel.com", pin = "Kx42"
    static let phone = "0819374625", contact = "line:kanya.s88"

    /// What may stay of a deleted account somewhere, and the README's reason ("What is kept after a deletion, and
    /// why").
    struct Kept: Sendable {
        let reason: String
        /// The traces it may hold; nil: any, for a row or event kept whole.
        var only: Set<String>? = nil
    }

    /// Where a trace may stay after the deletion, by service and `table.column` or by topic. Anything found
    /// elsewhere fails the test, and so does an entry no longer found, so that the list stays the truth.
    static let allowed: [String: Kept] = {
        var allowed: [String: Kept] = [:]
        // "sent `outbox` rows for `OUTBOX_RETENTION_SECONDS` (a day)": the events the account's use, its links and
        // its deletion made stay whole for audit until the relay purges them. places-importer's and
        // warning-detector's events about this account name nobody.
        for service in ["auth", "weather-fetcher", "appointment-booker", "analytics-aggregator"] {
            for column in ["key", "payload"] { allowed["\(service) outbox.\(column)"] = Kept(reason: "outbox") }
        }
        // "the events in Kafka topics until their retention ends: the topics that name accounts by id for the
        // services that act on them keep events 30 days (`auth.users`, `weather.user-cities`)" (decision 0011).
        // Their events name accounts by id and say what happened to them; nothing else of the person.
        let ids: Set<String> = ["account id", "weather install id", "places install id", "horoscope install id"]
        let accountTopicsForTheirRetention = Kept(reason: "accountTopicsForTheirRetention", only: ids)
        allowed["topic \(TopicCatalogue.users.name)"] = accountTopicsForTheirRetention
        allowed["topic \(TopicCatalogue.userCities.name)"] = accountTopicsForTheirRetention
        // "the one topic kept for good for rebuilds, `analytics.telemetry`, names an account only by a random pseudonym
        // whose only link to the account (analytics' `account_pseudonyms` row) is deleted with it, and carries no device
        // id": the pseudonym may stay, nothing that names the person.
        allowed["topic \(TopicCatalogue.telemetry.name)"] = Kept(reason: "telemetryUnderPseudonym", only: ["telemetry pseudonym"])
        // "admins' mail about a partner application (the applicant's name in its subject) for
        // `SENT_MAIL_RETENTION_DAYS`".
        allowed["auth outgoing_mail.subject"] = Kept(reason: "partnerApplicationMail", only: ["name"])
        return allowed
    }()

    @Test(
        "U8, U9, U11: an account that used every app and linked its installs is deleted; no table of the six services and no kept topic holds its ids, address, names or device tokens beyond the README's list, and every service spells its id as the token's sub"
    )
    func deletionAudit() async throws {
        try await EveryService.run { stack in
            let traces = try await Self.useEveryApp(stack)
            let access = try #require(traces.first { $0.name == "access token" }?.value)
            let searched = traces.filter { $0.name != "access token" }

            let (status, body) = try await stack.auth.deleteOwnAccount(bearer: access, json: ["pin": Self.pin])
            #expect(status == .noContent, "\(body)")
            try await Self.waitForErasure(stack, access: access)

            var found: [String: Set<String>] = [:]
            for (service, db) in stack.databases {
                for (location, names) in try await db.traces(searched) { found["\(service) \(location)"] = names }
            }
            let messages = try await readFromBeginning(Array(stack.keptTopics.keys), partitions: 2)
            for (topic, names) in TestSupport.traces(searched, in: messages) { found["topic \(stack.keptTopics[topic] ?? topic)"] = names }

            var unexpected: [String] = []
            for (location, names) in found.sorted(by: { $0.key < $1.key }) {
                guard let kept = Self.allowed[location] else {
                    unexpected.append("\(location): \(names.sorted())")
                    continue
                }
                if let only = kept.only, !names.isSubset(of: only) {
                    unexpected.append("\(location): \(names.subtracting(only).sorted()) (\(kept.reason) keeps only \(only.sorted()))")
                }
            }
            #expect(unexpected.isEmpty, "personal data outside the README's list:\n\(unexpected.joined(separator: "\n"))")
            let gone = Self.allowed.keys.filter { found[$0] == nil }.sorted()
            #expect(gone.isEmpty, "allowed but no longer found, so no longer needed in the list: \(gone)")
        }
    }

    // MARK: Waiting, spelling

    /// Waits until every service has applied the deletion (each refuses the account's token, which it does from
    /// the transaction that erased its data on) and has published what followed from it (no unsent outbox row).
    static func waitForErasure(_ stack: EveryService, access: String) async throws {
        try await waitForRefusal(stack, of: [access], "the deleted account's token")
        for (service, db) in stack.databases {
            #expect(
                try await eventually { try await db.count("SELECT count(*)::int FROM outbox WHERE sent_at IS NULL") == 0 },
                "\(service) published its events")
        }
    }

    /// Waits until each service answers each of `tokens` 401, as it does once it applied the account's end.
    static func waitForRefusal(_ stack: EveryService, of tokens: [String], _ what: String) async throws {
        for token in tokens {
            let refusals: [(String, @Sendable () async throws -> HTTPResponse.Status)] = [
                ("auth", { try await stack.auth.request(.get, "/v1/me", bearer: token).0 }),
                ("weather-fetcher", { try await stack.weather.get("/v1/me/favourites", bearer: token).0 }),
                ("warning-detector", { try await stack.warnings.request(.get, "/v1/me/devices", bearer: token).0 }),
                ("places-importer", { try await stack.places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=2000", bearer: token).0 }),
                ("appointment-booker", { try await stack.booking.request(.get, "/v1/me/bookings", bearer: token).0 }),
                ("analytics-aggregator", { try await stack.analytics.request(.get, "/v1/poll", bearer: token).0 }),
            ]
            for (service, status) in refusals {
                #expect(try await eventually { try await status() == .unauthorized }, "\(service) refuses \(what)")
            }
        }
    }

    /// The account id a session answer names: the access token's `sub`, in lower case (one spelling everywhere).
    static func spelling(_ body: JSONObject, _ route: String) throws -> String {
        let id = try #require(body["account.id"], "\(route): \(body)")
        let token = try #require(body["accessToken"], "\(route): \(body)")
        #expect(id == (try subject(of: token)), "\(route) answers the token's sub")
        #expect(id == id.lowercased(), "\(route) answers the id in lower case: \(id)")
        return id
    }

    /// The `sub` claim of an access token, read from its payload (the signature is the services' to check).
    static func subject(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? [String: Any]
        return try #require(claims?["sub"] as? String)
    }

    /// The six characters after the last `marker` in the mailbox, once the mail sender delivered it.
    static func mailedCode(in smtp: SMTPSink, after marker: String) async throws -> String? {
        _ = try await eventually { smtp.mailbox.contains(marker) }
        guard let range = smtp.mailbox.range(of: marker, options: .backwards) else { return nil }
        return String(smtp.mailbox[range.upperBound...].prefix(6))
    }

    /// A push token as APNs gives one: 64 hex digits.
    static func randomDeviceToken() -> String {
        (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }.joined().prefix(64).description
    }
}
