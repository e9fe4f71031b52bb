import AnalyticsContract
import AppointmentsContract
import AuthContract
import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PlacesContract
import PlatformClient
import TestSupport
import Testing
import WarningsContract
import WeatherContract

extension StackJourneys {
    /// The horoscope app's journey through the running stack (X5; B1-B5, U5, U6, U9, A4, P1), with the generated
    /// clients only: the free horoscope, a paid feature refused then bought through the provider's signed webhook, a
    /// bad reading with temples from places-importer, a fortune teller's slot with its reminder pushed under the
    /// horoscope app's topic (a fake APNs as strict as Apple's), the install linked to an OpenID Connect account with
    /// its data, and the account deleted everywhere.
    @Suite("App journey through the stack: horoscope")
    struct HoroscopeAppJourneyTests {
        /// Bangkok, where the fake Overpass has a temple.
        static let here = (lat: 13.7563, lon: 100.5018)

        @Test(
            "install → free horoscope → tarot refused → paid by webhook → tarot → temples → booking → reminder push → cancel → OpenID Connect → deleted"
        )
        func horoscopeApp() async throws {
            let report = JourneyReport(app: "horoscope")
            defer { report.finish() }
            let providers = JourneyProviders.current
            let smtp = try providers.mailSink()
            let certificate = try providers.pushCertificate()
            let pushKeyPEM = try providers.pushKeyPEM()
            let pushKey = try P256.Signing.PrivateKey(pemRepresentation: pushKeyPEM)
            let apns = StrictAPNs(provider: .init(key: pushKey.publicKey, keyId: JourneyProviders.pushKeyId, teamId: JourneyProviders.pushTeamId))
            let payments = PaymentProvider(secret: try providers.value("PAYMENT_WEBHOOK_SECRET", fresh: "whsec-journey-\(UUID().uuidString)"))
            let idp = try providers.identityProvider()
            try await withFakeHTTPServer(port: try providers.port(for: "PLACES_OVERPASS_BASE_URL"), ProviderFakes.places) { places in
                try await withFakeHTTPServer(port: try providers.port(for: "PUSH_BASE_URL"), tls: certificate, apns.handler) { push in
                    try await idp.serve {
                        var settings = try JourneyPeople.settings(smtp: smtp).merging(ProviderFakes.placesSettings(places)) { $1 }
                        settings.merge([
                            // Workplaces only: the temple comes when appointment-booker asks for it (B4).
                            "PLACES_IMPORT_AREAS": "bangkok:13.70,100.45,13.80,100.55",
                            "PUSH_BASE_URL": push.baseURL, "PUSH_CA_FILE": certificate.certificateFile, "PUSH_TEAM_ID": JourneyProviders.pushTeamId,
                            "PUSH_KEY_ID": JourneyProviders.pushKeyId, "PUSH_SIGNING_KEY": pushKeyPEM,
                            "PAYMENT_WEBHOOK_SECRET": payments.secret,
                            "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                            "OIDC_AUDIENCES": "horoscope=horoscope-app", "OIDC_ALLOW_HTTP_LOOPBACK": "true",
                            // A reminder as soon as a booking within the week is made.
                            "APPOINTMENT_REMINDER_LEAD_MINUTES": "10080",
                        ]) { $1 }
                        try await RunningStack.run(settings: settings) { stack in
                            try await journey(
                                stack, report: report, smtp: smtp, apns: apns, payments: payments, idp: idp)
                        }
                    }
                }
            }
        }

        func journey(
            _ stack: RunningStack, report: JourneyReport, smtp: SMTPSink, apns: StrictAPNs, payments: PaymentProvider, idp: FakeIdentityProvider
        ) async throws {
            let app = PlatformClients.install(
                app: .horoscope, installId: "journey-horoscope-\(uniqueSuffix())", addresses: stack.addresses, store: MemoryTokenStore())
            let installId = try await report.step("install: an account from auth") { try await app.session.accountId() }

            try await report.step("the free daily horoscope") {
                let reading = try await app.appointments.getDailyHoroscope(path: .init(sign: .leo), query: .init(tz: "Asia/Bangkok")).ok.body.json
                try #require(!reading.text.isEmpty && !reading.shareText.isEmpty)
            }
            let cards = try await app.appointments.listTarotCards().ok.body.json.cards.prefix(3).map(\.id)
            let tarot = AppointmentsContract.Operations.ReadTarot.Input.Body.JsonPayload(cards: cards)
            try await report.step("tarot refused: 403 naming the feature to buy") {
                let refused = try await app.appointments.readTarot(body: .json(tarot)).forbidden.body.json
                try #require(refused.error.code == "entitlement_required" && refused.error.details?.additionalProperties["entitlement"] == "tarot")
            }
            try await report.step("the provider's signed webhook: tarot and a fortune teller paid") {
                try await payments.notifyPaid("tarot", for: installId, auth: stack.addresses.auth)
                try await payments.notifyPaid("contact_fortune_teller", for: installId, auth: stack.addresses.auth)
                try await app.session.renewNow()
            }
            let reading = try await report.step("tarot, now paid") {
                try await app.appointments.readTarot(body: .json(tarot)).created.body.json
            }

            try await report.step("a bad reading where no temple is known yet: looking, and places-importer is asked") {
                // The member asks (an anonymous reading only reads what is known, B4): the day and sign found anonymously.
                let first = try await badReading(stack, as: app.appointments)
                let looking = first.placesStatus == .looking && first.placesToPray?.isEmpty == true
                // A stack met again (the operator's second run) found the temple in an earlier run.
                let foundBefore = JourneyProviders.current.meetsRunningStack && first.placesStatus == .found
                try #require(looking || foundBefore, "\(String(describing: first.placesStatus))")
            }
            try await report.eventually("the temple places-importer imported on that request is suggested", within: .seconds(90)) {
                let reading = try await badReading(stack)
                return reading.placesStatus == .found && reading.placesToPray?.contains { $0.name == "Wat Journey" } == true ? true : nil
            }
            try await report.step("the places app does not list the temple as a workplace") {
                let nearby = try await app.places.listPlacesNearby(query: .init(lat: Self.here.lat, lon: Self.here.lon, radius: 2_000)).ok.body.json
                try #require(!nearby.places.contains { $0.name == "Wat Journey" })
            }

            let phone = JourneyPeople.deviceToken()
            apns.issue(phone, to: "com.example.horoscope")
            try await report.step("register the phone for the horoscope app's pushes") {
                let change = WarningsContract.Components.Schemas.DeviceChange(
                    timeZone: "Asia/Bangkok", installId: "install-\(uniqueSuffix())", app: .horoscope)
                _ = try await app.warnings.registerDevice(path: .init(token: phone), body: .json(change)).ok
            }

            let partnerId = try await report.step("a fortune teller is invited, activated, listed and sets the week's hours") {
                try await listedPartner(stack, smtp: smtp)
            }
            let booking = try await report.step("book the teller's first free slot two days ahead") {
                let from = Date().addingTimeInterval(2 * 86_400).formatted(.iso8601.year().month().day())
                let slots = try await app.appointments.listSlots(path: .init(partnerId: partnerId), query: .init(from: from, days: 3)).ok.body.json
                    .slots
                let first = try #require(slots.first.flatMap { try? Date($0.startsAt, strategy: .iso8601) })
                return try await app.appointments.bookSlot(path: .init(partnerId: partnerId), body: .json(.init(startsAt: first))).created.body.json
            }
            try await report.eventually("the reminder reaches the phone under the horoscope app's topic", within: .seconds(90)) {
                apns.sent(to: phone).first { $0.contains("appointment-reminder") }
            }
            try await report.step("cancel the booking") {
                let cancelled = try await app.appointments.cancelBooking(path: .init(bookingId: booking.id), body: .json(.init())).ok.body.json
                try #require(cancelled.status == .cancelled)
            }

            let (member, auth) = PlatformClients.signIn(addresses: stack.addresses, store: MemoryTokenStore())
            try await report.step("sign in with OpenID Connect and link the install: its data comes along") {
                let nonce = "nonce-\(uniqueSuffix())"
                let token = try await idp.idToken(subject: "journey-\(uniqueSuffix())", audience: ["horoscope-app"], nonce: nonce)
                try await member.session.adopt(try await auth.loginWithIdToken(body: .json(.init(idToken: token, nonce: nonce))).ok.body.json)
                let install = try #require(try await app.session.refreshToken())
                _ = try await member.auth.mergeInstallAccount(body: .json(.init(installRefreshToken: install))).ok
            }
            try await report.eventually("the readings, the booking and the phone are the signed-in account's") {
                let readings = try await member.appointments.listMyReadings().ok.body.json.readings
                let bookings = try await member.appointments.listMyBookings().ok.body.json.bookings
                let devices = try await member.warnings.listDevices().ok.body.json.devices
                return readings.contains { $0.id == reading.id } && bookings.contains { $0.id == booking.id }
                    && devices.contains { $0.token == phone }
                    ? true : nil
            }
            try await report.step("the paid feature came along: the signed-in account reads tarot") {
                try await member.session.renewNow()
                _ = try await member.appointments.readTarot(body: .json(tarot)).created
            }

            let token = try await member.session.accessToken()
            try await report.step("delete the account") { _ = try await member.auth.deleteMyAccount().noContent }
            try await report.eventually("all six services refuse the deleted account's token") {
                let refused = try await refusedEverywhere(stack, token: token)
                return refused ? true : nil
            }
        }

        /// A bad reading at the temple's coordinates (a sign and day with a bad verdict, found by asking anonymously),
        /// read again as `member` when one is given: only a trusted member's reading asks places-importer (B4).
        func badReading(
            _ stack: RunningStack, as member: AppointmentsContract.Client? = nil
        ) async throws -> AppointmentsContract.Components.Schemas.Reading {
            let anyone = AppointmentsContract.Client(serverURL: stack.addresses.appointments, transport: PlatformClients.defaultTransport)
            let today = Date()
            for offset in 0..<30 {
                let day = today.addingTimeInterval(Double(offset) * 86_400).formatted(.iso8601.year().month().day())
                for sign in AppointmentsContract.Components.Schemas.ZodiacSign.allCases {
                    let query = AppointmentsContract.Operations.GetDailyHoroscope.Input.Query(
                        date: day, latitude: Self.here.lat, longitude: Self.here.lon)
                    let reading = try await anyone.getDailyHoroscope(path: .init(sign: sign), query: query).ok.body.json
                    guard reading.verdict == .bad else { continue }
                    guard let member else { return reading }
                    return try await member.getDailyHoroscope(path: .init(sign: sign), query: query).ok.body.json
                }
            }
            throw StackError(description: "no bad reading in 30 days of 12 signs")
        }

        /// A teller invited by the first admin, activated by mail link, given an approved profile and every day's hours.
        func listedPartner(_ stack: RunningStack, smtp: SMTPSink) async throws -> String {
            let admin = try await JourneyPeople.admin(stack)
            let email = "teller-\(uniqueSuffix())@journey.test"
            let tellerId = try await admin.auth.inviteAccount(body: .json(.init(email: email, role: .partner))).created.body.json.accountId
            try await JourneyPeople.activate(stack, email: email, password: "tarot-Cards-42", smtp: smtp)
            let teller = try await JourneyPeople.signIn(stack, email: email, password: "tarot-Cards-42")
            // appointment-booker learns the partner from auth's event.
            _ = try await poll(within: .seconds(60)) { try await JourneyPeople.addPartnerProfile(admin: admin, accountId: tellerId) }
            _ = try await admin.appointments.updatePartner(path: .init(partnerId: tellerId), body: .json(.init(approved: true, feeStatus: .paid))).ok
            let week = (1...7).map { AppointmentsContract.Components.Schemas.WeeklyWindow(weekday: $0, start: "09:00", end: "17:00") }
            _ = try await teller.appointments.setAvailability(path: .init(partnerId: tellerId), body: .json(.init(weekly: week, exceptions: []))).ok
            return tellerId
        }

        /// Whether all six services answer 401 to the token: each learns of the deletion from auth's event (what each
        /// erased is checked per service in `Tests/Integration/CrossServiceTests/AccountLifecycle`).
        func refusedEverywhere(_ stack: RunningStack, token: String) async throws -> Bool {
            let bearer = [FixedBearer(token: token)]
            let transport = PlatformClients.defaultTransport
            let addresses = stack.addresses
            let auth = AuthContract.Client(serverURL: addresses.auth, transport: transport, middlewares: bearer)
            let booking = AppointmentsContract.Client(serverURL: addresses.appointments, transport: transport, middlewares: bearer)
            let warnings = WarningsContract.Client(serverURL: addresses.warnings, transport: transport, middlewares: bearer)
            let weather = WeatherContract.Client(serverURL: addresses.weather, transport: transport, middlewares: bearer)
            let places = PlacesContract.Client(serverURL: addresses.places, transport: transport, middlewares: bearer)
            let analytics = AnalyticsContract.Client(serverURL: addresses.analytics, transport: transport, middlewares: bearer)
            guard case .unauthorized = try await auth.getProfile() else { return false }
            guard case .unauthorized = try await booking.listMyReadings() else { return false }
            guard case .unauthorized = try await warnings.listDevices() else { return false }
            guard case .unauthorized = try await weather.listFavourites() else { return false }
            guard case .unauthorized = try await places.getPlace(path: .init(placeId: UUID().uuidString.lowercased())) else { return false }
            let answer = AnalyticsContract.Components.Schemas.PollAnswers(answers: [.init(questionId: "benefit", answer: true)])
            guard case .unauthorized = try await analytics.answerPoll(body: .json(answer)) else { return false }
            return true
        }
    }

    /// A token sent as it is, with no renewal: how a deleted account's last token is tried.
    struct FixedBearer: ClientMiddleware {
        let token: String

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.authorization] = "Bearer \(token)"
            return try await next(request, body, baseURL)
        }
    }
}
