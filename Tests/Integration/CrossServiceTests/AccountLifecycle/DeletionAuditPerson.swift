import Foundation
import HTTPTypes
import PlatformCore
import PlatformEvents
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// The person the deletion audit follows: one account that uses every app, and what each use leaves to search for.
extension DeletionAuditTests {
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
}
