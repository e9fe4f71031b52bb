import Foundation
import HTTPTypes
import PlatformCore
import PlatformEvents
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// The six services at once, wired through one set of topics on the test broker as production wires them, every
/// token from auth's routes.
struct EveryService: Sendable {
    let auth: AuthTestHarness
    let warnings: WarningTestHarness
    let weather: WeatherTestHarness
    let places: PlacesTestHarness
    let booking: BookingTestHarness
    let analytics: AnalyticsTestHarness
    let usersTopic: String

    /// Each service's database under the service's name.
    var databases: [(String, TestDatabase)] {
        [
            ("auth", auth.db), ("weather-fetcher", weather.db), ("warning-detector", warnings.db), ("places-importer", places.db),
            ("appointment-booker", booking.db), ("analytics-aggregator", analytics.db),
        ]
    }

    /// The topics that name accounts and outlive a deletion (`auth.users` and `weather.user-cities` for their month,
    /// `analytics.telemetry` for good, in `TopicCatalogue`), under the names this run gave them.
    var keptTopics: [String: String] {
        [
            usersTopic: TopicCatalogue.users.name, warnings.userCitiesTopic: TopicCatalogue.userCities.name,
            analytics.topics["ANALYTICS_TELEMETRY_TOPIC"]: TopicCatalogue.telemetry.name,
        ]
    }

    static func run(_ body: @Sendable (EveryService) async throws -> Void) async throws {
        let authSettings = LifecycleAuth.trustingInstalls.merging(["PAYMENT_WEBHOOK_SECRET": AuthTestHarness.webhookSecret]) { $1 }
        try await LifecycleAuth.run(extraEnvironment: authSettings) { auth, users in
            try await WarningTestHarness.run(extraEnvironment: ["WARNING_USERS_TOPIC": users], tokens: auth.tokens) { warnings in
                let weatherWiring = [
                    "WEATHER_USERS_TOPIC": users, "WEATHER_USER_CITIES_TOPIC": warnings.userCitiesTopic,
                    "WEATHER_FORECASTS_TOPIC": warnings.forecastsTopic, "WEATHER_WARNINGS_TOPIC": warnings.warningsTopic,
                ]
                try await WeatherTestHarness.run(extraEnvironment: weatherWiring, tokens: auth.tokens) { weather in
                    try await PlacesTestHarness.run(extraEnvironment: ["PLACES_USERS_TOPIC": users], tokens: auth.tokens) { places in
                        let bookingWiring = [
                            "APPOINTMENT_USERS_TOPIC": users, "APPOINTMENT_BOOKINGS_TOPIC": warnings.appointmentsTopic,
                            "APPOINTMENT_PLACES_TOPIC": places.topic, "APPOINTMENT_PLACE_REQUESTS_TOPIC": places.requestsTopic,
                            "APPOINTMENT_PARTNER_APPLICATIONS_TOPIC": auth.partnerApplicationsTopic,
                            // The daily horoscope as soon as it is set, so that it reaches the phone before the deletion.
                            "DAILY_HOROSCOPE_TICK_MS": "200",
                        ]
                        try await BookingTestHarness.run(extraEnvironment: bookingWiring, tokens: auth.tokens) { booking in
                            let analyticsWiring = ["ANALYTICS_USERS_TOPIC": users, "ANALYTICS_USER_CITIES_TOPIC": warnings.userCitiesTopic]
                            try await AnalyticsTestHarness.run(extraEnvironment: analyticsWiring, tokens: auth.tokens) { analytics in
                                try await body(
                                    EveryService(
                                        auth: auth, warnings: warnings, weather: weather, places: places, booking: booking, analytics: analytics,
                                        usersTopic: users))
                            }
                        }
                    }
                }
            }
        }
    }
}

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
    func test_deletionAudit() async throws {
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

    // MARK: The person

    /// One person's use of every app, each step through the service's HTTP API with tokens from auth: a survey
    /// account with a confirmed address, a name and a PIN reset mail; the weather, places and horoscope apps' install
    /// accounts with their favourites, device tokens, ratings, readings, payments and an appointment, then linked
    /// to the survey account (U8); the survey, the poll, telemetry and a partner application as that account. The
    /// traces that name them, the account's access token among them (not searched for).
    static func useEveryApp(_ stack: EveryService) async throws -> [AccountTrace] {
        let auth = stack.auth
        var traces = [AccountTrace("e-mail", email), AccountTrace("name", name), AccountTrace("named partner", partnerName)]
        traces += [AccountTrace("phone", phone), AccountTrace("booking contact", contact)]

        var (status, body) = try await auth.post("/v1/survey/signup", ["email": email, "pin": pin, "pinConfirmation": pin])
        #expect(status == .created, "\(body)")
        let code = try #require(try await mailedCode(in: auth.smtp, after: "Your confirmation code is "))
        (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": code])
        #expect(status == .ok, "\(body)")
        (status, body) = try await auth.post("/v1/survey/login", ["email": email, "pin": pin])
        #expect(status == .ok, "\(body)")
        let surveyId = try spelling(body, "POST /v1/survey/login")
        let survey = try AppSession(body)
        (status, body) = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
        #expect(status == .accepted, "\(body)")
        #expect(try await waitForPinCode(in: auth.smtp) != nil, "the PIN reset mail was sent")
        let profile = try JSONSerialization.data(withJSONObject: ["displayName": name, "language": "th"])
        (status, body) = try await auth.request(.patch, "/v1/me", body: profile, bearer: survey.access)
        #expect(status == .ok && body["account.displayName"] == name, "\(body)")
        (status, body) = try await auth.request(.get, "/v1/me", bearer: survey.access)
        #expect(status == .ok && body["account.id"] == surveyId, "GET /v1/me answers the token's sub: \(body)")
        traces += [AccountTrace("account id", surveyId), AccountTrace("sha256(account id)", ErasedAccounts.unkeyedHash(of: surveyId))]

        var installs: [(app: String, session: AppSession)] = []
        for app in ["weather", "places", "horoscope"] {
            let installId = "install-\(uniqueSuffix())"
            (status, body) = try await auth.post("/v1/installs", ["app": app, "installId": installId])
            #expect(status == .created, "\(body)")
            let id = try spelling(body, "POST /v1/installs")
            installs.append((app, try AppSession(body)))
            traces += [
                AccountTrace("\(app) install id", id), AccountTrace("sha256(\(app) install id)", ErasedAccounts.unkeyedHash(of: id)),
                AccountTrace("\(app) install's installId", installId),
            ]
        }
        traces += try await useWeatherApp(stack, installs[0].session)
        try await usePlacesApp(stack, installs[1].session)
        let horoscope = try await useHoroscopeApp(stack, installs[2].session)
        // Refreshed for the features it paid for: the earlier refresh token has ended.
        installs[2].session = horoscope.session
        traces += horoscope.traces
        traces += try await pseudonyms(stack)

        // The installs' telemetry counted before the links, as days of use would have it: this test is about what
        // an erasure leaves, and a link or deletion applied while analytics-aggregator counts a batch of the same
        // account's telemetry can leave that batch under the ended pseudonym (a race between two consumers).
        #expect(
            try await eventually {
                try await stack.analytics.count("SELECT count(*)::int FROM feature_users WHERE feature IN ('favourites', 'pins')") == 2
            }, "analytics-aggregator counted the installs' telemetry")
        // U8: each install linked to the survey account, its data moving with it.
        for (app, install) in installs {
            (status, body) = try await auth.merge(install: install, into: survey.access)
            #expect(status == .ok && body["account.id"] == surveyId, "\(app): \(body)")
        }
        try await waitForRefusal(stack, of: installs.map(\.session.access), "a merged install's token")
        let (_, bookings) = try await stack.booking.request(.get, "/v1/me/bookings", bearer: survey.access)
        #expect(bookings["bookings"].count == 1, "the install's appointment is the account's: \(bookings.raw ?? "")")
        #expect(bookings["bookings"][0]["userId"].string == surveyId, "appointment-booker spells the id as auth: \(bookings.raw ?? "")")
        let admin = try await auth.adminToken()
        let (_, pending) = try await stack.places.request(.get, "/v1/admin/places/pending", bearer: admin)
        #expect(pending["places"][0]["addedBy"].string == surveyId, "places-importer spells the id as auth: \(pending.raw ?? "")")

        try await useSurveyApp(stack, survey, device: traces.first { $0.name == "telemetry device id" }?.value ?? "")
        try await applyAsPartner(stack, survey)
        let named = Set(traces.map(\.value))
        traces += try await pseudonyms(stack).filter { !named.contains($0.value) }
        return traces + [AccountTrace("access token", survey.access)]
    }

    /// A favourite and a recent city, a phone registered for pushes, and the app's telemetry.
    static func useWeatherApp(_ stack: EveryService, _ install: AppSession) async throws -> [AccountTrace] {
        #expect(try await stack.weather.request(.put, "/v1/me/favourites/\(berlin)", bearer: install.access).0.code < 300)
        #expect(try await stack.weather.get("/v1/cities/\(bern)/weather", bearer: install.access).0 == .ok)
        let phone = randomDeviceToken()
        let (status, body) = try await stack.warnings.request(
            .put, "/v1/me/devices/\(phone)", json: ["app": "weather", "currentCityId": berlin, "timeZone": "Asia/Bangkok"], bearer: install.access)
        #expect(status == .ok, "device: \(body.raw ?? "")")
        #expect(
            try await eventually {
                try await stack.warnings.request(.get, "/v1/me/notification-settings", bearer: install.access).1["favourites"].count == 1
            }, "the favourite reached warning-detector")
        let device = UUID().uuidString
        try await stack.analytics.ingestAll([
            AnalyticsTestHarness.event("install", device: device, user: install.id),
            AnalyticsTestHarness.event("feature_used", device: device, user: install.id, feature: "favourites"),
            AnalyticsTestHarness.event("city_viewed", device: device, user: install.id, city: bern, cityName: "Bern"),
        ])
        return [AccountTrace("weather device token", phone), AccountTrace("telemetry device id", device)]
    }

    /// A place added, rated, saved and pinned (the install is trusted: `LifecycleAuth.trustingInstalls`).
    static func usePlacesApp(_ stack: EveryService, _ install: AppSession) async throws {
        let places = stack.places
        var (status, body) = try await places.request(
            .post, "/v1/places", json: ["name": "Riverside Desk", "latitude": 52.5, "longitude": 13.4, "category": "coworking"],
            bearer: install.access)
        #expect(status == .created, "\(body.raw ?? "")")
        let place = try #require(body["id"].string)
        (status, body) = try await places.request(
            .put, "/v1/places/\(place)/rating", json: PlacesAccountLifecycleTests.rating, bearer: install.access)
        #expect(status.code < 300, "\(body.raw ?? "")")
        #expect(try await places.request(.put, "/v1/places/\(place)/saved", bearer: install.access).0.code < 300)
        #expect(try await places.request(.put, "/v1/places/\(place)/pin", json: ["colour": "green"], bearer: install.access).0.code < 300)
        try await stack.analytics.ingestAll(
            [AnalyticsTestHarness.event("feature_used", user: install.id, feature: "pins")], key: AnalyticsTestHarness.placesKey)
    }

    /// Paid readings with personal inputs (two names, a phone number), the daily horoscope pushed to a phone, and an
    /// appointment with a fortune teller under the person's name and contact.
    static func useHoroscopeApp(_ stack: EveryService, _ first: AppSession) async throws -> (traces: [AccountTrace], session: AppSession) {
        let (auth, booking) = (stack.auth, stack.booking)
        for entitlement in ["fortune_stick", "compatibility", "phone_number", "contact_fortune_teller"] {
            try await auth.pay(entitlement, for: first.id)
        }
        let install = try await auth.refreshed(first)
        let (changed, me) = try await auth.request(.patch, "/v1/me", body: Data(#"{"zodiacSign": "leo"}"#.utf8), bearer: install.access)
        #expect(changed == .ok, "\(me)")
        var (status, body) = try await booking.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: install.access)
        #expect(status == .created, "\(body.raw ?? "")")
        (status, body) = try await booking.request(.post, "/v1/readings/compatibility", json: ["names": [name, partnerName]], bearer: install.access)
        #expect(status == .created, "\(body.raw ?? "")")
        (status, body) = try await booking.request(.post, "/v1/readings/phone-number", json: ["number": phone], bearer: install.access)
        #expect(status == .created, "\(body.raw ?? "")")
        let share = try #require(body["shareUrl"].string?.split(separator: "/").last)
        let (shown, shared) = try await booking.request(.get, "/v1/shared/readings/\(share)")
        #expect(shown == .ok && !(shared.raw.map { "\($0)" } ?? "").contains(phone), "a shared reading shows no phone number")

        let phoneToken = randomDeviceToken()
        (status, body) = try await stack.warnings.request(
            .put, "/v1/me/devices/\(phoneToken)", json: ["app": "horoscope", "timeZone": "Asia/Bangkok", "language": "th"], bearer: install.access)
        #expect(status == .ok, "device: \(body.raw ?? "")")
        (status, body) = try await booking.request(
            .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "00:00", "timeZone": "Asia/Bangkok"],
            bearer: install.access)
        #expect(status == .ok, "\(body.raw ?? "")")
        let admin = try await auth.adminToken()
        #expect(
            try await eventually {
                try await stack.warnings.request(.get, "/v1/admin/push-deliveries?userId=\(install.id)", bearer: admin).1["deliveries"].count > 0
            }, "the daily horoscope was pushed to the phone")
        let (_, deliveries) = try await stack.warnings.request(.get, "/v1/admin/push-deliveries?userId=\(install.id)", bearer: admin)
        #expect(deliveries["deliveries"][0]["userId"].string == install.id, "warning-detector spells the id as auth: \(deliveries.raw ?? "")")

        let (teller, _) = try await booking.listedPartner(through: auth, admin: admin)
        let partner = try #require(UUID(uuidString: teller.id))
        let slot = try await booking.futureSlot(partner, fromDay: 2)
        // Tried until the partner's listing has reached the booking side, as the app's user would try again.
        for _ in 0..<100 {
            (status, body) = try await booking.request(
                .post, "/v1/partners/\(partner)/bookings", json: ["startsAt": slot, "name": name, "contact": contact], bearer: install.access)
            if status == .created { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status == .created, "booked: \(body.raw ?? "")")
        #expect(body["userId"].string == install.id, "appointment-booker spells the id as auth: \(body.raw ?? "")")
        return ([AccountTrace("horoscope device token", phoneToken)], install)
    }

    /// The hotel survey with a rating below good and its reason, the in-app poll and telemetry, as the survey account.
    static func useSurveyApp(_ stack: EveryService, _ survey: AppSession, device: String) async throws {
        let analytics = stack.analytics
        #expect(try await eventually { try await analytics.request(.get, "/v1/survey", bearer: survey.access).0 == .ok }, "a survey account")
        var (status, body) = try await analytics.request(
            .post, "/v1/survey/services/spa-pool", json: ["answers": ["excellent", "excellent", "good", "good", "good"]], bearer: survey.access)
        #expect(status == .created && body["askWhy"].bool == true, "\(body.raw ?? "")")
        (status, body) = try await analytics.request(
            .post, "/v1/survey/services/spa-pool/why", json: ["why": "The pool was cold at night."], bearer: survey.access)
        #expect(status == .noContent, "\(body.raw ?? "")")
        (status, body) = try await analytics.request(.post, "/v1/survey/overall", json: ["stars": 3], bearer: survey.access)
        #expect(status == .created && body["couponStatus"].string == "issued", "\(body.raw ?? "")")
        (status, body) = try await analytics.request(
            .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: survey.access)
        #expect(status.code < 300, "\(body.raw ?? "")")
        try await analytics.ingestAll([AnalyticsTestHarness.event("feature_used", device: device, user: survey.id, feature: "survey")])
        // Counted before the deletion, for the reason the installs' telemetry is counted before the links.
        #expect(
            try await eventually { try await analytics.count("SELECT count(*)::int FROM feature_users WHERE feature = 'survey'") == 1 },
            "analytics-aggregator counted the account's telemetry")
    }

    /// An application to be a fortune teller, which auth mails to its admins (B6).
    static func applyAsPartner(_ stack: EveryService, _ survey: AppSession) async throws {
        let (_, terms) = try await stack.booking.request(.get, "/v1/partner-terms")
        let application: [String: Any] = [
            "name": name, "description": "Tarot on weekends", "contact": contact, "languages": ["th"], "timeZone": "Asia/Bangkok",
            "termsVersion": terms["version"].string ?? "",
        ]
        let (status, body) = try await stack.booking.request(.post, "/v1/me/partner-application", json: application, bearer: survey.access)
        #expect(status == .created, "\(body.raw ?? "")")
        #expect(try await eventually { stack.auth.smtp.mailbox.contains(name) }, "the admins were mailed")
    }

    /// The pseudonyms analytics-aggregator names the accounts by on its kept telemetry topic so far: traces too,
    /// since the table that links them to the accounts is what the deletion must empty of them.
    static func pseudonyms(_ stack: EveryService) async throws -> [AccountTrace] {
        let db = stack.analytics.db
        let rows = try await db.client.query("SELECT pseudonym FROM account_pseudonyms", logger: db.logger).decode(String.self).collectAll()
        #expect(!rows.isEmpty, "the accounts' telemetry is named by pseudonyms")
        return rows.map { AccountTrace("telemetry pseudonym", $0) }
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
