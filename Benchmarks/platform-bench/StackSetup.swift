import Foundation
import NIOHTTP1
import PlatformCore
import TestSupport

/// What the stack holds before the load, made through the services' own APIs as the apps and the dashboard make it:
/// install accounts from auth (never minted tokens), a listed fortune teller with open hours and the booking
/// feature granted to the horoscope installs, the session cities' weather and the bench area's places.
struct StackSetup {
    let http: StackHTTP
    let stack: StackAddresses
    let users: Int
    let adminEmail: String
    let adminPassword: String

    /// One phone: an install of each app, each with the account auth made for it.
    struct AppUser: Sendable {
        var weather: Install
        var places: Install
        var horoscope: Install
    }

    struct Install: Sendable {
        var accountId: String
        var accessToken: String
        var refreshToken: String
    }

    /// auth's `Session` answer, the fields the bench uses.
    struct Session: Decodable {
        struct Account: Decodable { var id: String }
        var accessToken: String
        var refreshToken: String
        var account: Account
    }

    /// `users` phones, each with three installs. auth allows `INSTALLS_PER_ADDRESS` (20) installs an hour per client
    /// address, so every 20 come from their own loopback address (127.0.0.2, 127.0.0.3, ...), as phones behind
    /// different networks would.
    func installs() async throws -> [AppUser] {
        let suffix = uniqueSuffix()
        return try await concurrently(0..<users, width: 8) { index in
            var made: [Install] = []
            for (offset, app) in ["weather", "places", "horoscope"].enumerated() {
                let serial = index * 3 + offset
                let answer = try await http.expect(
                    "install account", .POST, "\(stack.auth)/v1/installs",
                    body: #"{"app":"\#(app)","installId":"bench-\#(app)-\#(index)-\#(suffix)"}"#, from: "127.0.0.\(2 + serial / 20)")
                let session = try StackHTTP.decode(Session.self, answer)
                made.append(Install(accountId: session.account.id, accessToken: session.accessToken, refreshToken: session.refreshToken))
            }
            return AppUser(weather: made[0], places: made[1], horoscope: made[2])
        }
    }

    /// The first admin's access token (`BOOTSTRAP_ADMIN_EMAIL`/`PASSWORD` given to the stack).
    func adminToken() async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["email": adminEmail, "password": adminPassword])
        let answer = try await http.expect("admin login", .POST, "\(stack.auth)/v1/dashboard/login", body: String(decoding: body, as: UTF8.self))
        return try StackHTTP.decode(Session.self, answer).accessToken
    }

    /// A fortune teller invited by the admin, given an approved profile and open every hour of every day (the admin
    /// sets the hours, so the invitation's mail need not be read); its free hourly slots from two days ahead.
    func bookablePartner(admin: String, slotsWanted: Int) async throws -> (partnerId: String, slots: [String]) {
        struct Invited: Decodable { var accountId: String }
        let invited = try StackHTTP.decode(
            Invited.self,
            try await http.expect(
                "invite a fortune teller", .POST, "\(stack.auth)/v1/admin/invitations",
                body: #"{"email":"teller-\#(uniqueSuffix())@bench.test","role":"partner"}"#, token: admin))
        let partner = invited.accountId
        let profile =
            #"{"accountId":"\#(partner)","name":"Madame Bench","description":"Tarot","contact":"+66 2 000 0000","languages":["th"],"#
            + #""timeZone":"Asia/Bangkok"}"#
        // appointment-booker knows the account as a partner once auth's event has crossed the broker: 422 until then.
        let deadline = ContinuousClock.now + .seconds(90)
        while true {
            let answer = try await http.send(.POST, "\(stack.appointments)/v1/admin/partners", body: profile, token: admin)
            if answer.isSuccess { break }
            guard answer.status == 422, ContinuousClock.now < deadline else {
                throw BenchError("creating the partner's profile answered \(answer.status): \(answer.body.prefix(300))")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        _ = try await http.expect(
            "approve the partner", .PATCH, "\(stack.appointments)/v1/admin/partners/\(partner)", body: #"{"approved":true,"feeStatus":"paid"}"#,
            token: admin)
        let week = (1...7).map { #"{"weekday":\#($0),"start":"00:00","end":"24:00"}"# }.joined(separator: ",")
        _ = try await http.expect(
            "the partner's hours", .PUT, "\(stack.appointments)/v1/partners/\(partner)/availability",
            body: #"{"weekly":[\#(week)],"exceptions":[]}"#, token: admin)
        struct Listing: Decodable {
            struct Slot: Decodable { var startsAt: String }
            var slots: [Slot]
        }
        var slots: [String] = []
        var first = Date().addingTimeInterval(2 * 86_400)
        while slots.count < slotsWanted {
            let day = first.formatted(.iso8601.year().month().day())
            let listing = try StackHTTP.decode(
                Listing.self, try await http.expect("free slots", .GET, "\(stack.appointments)/v1/partners/\(partner)/slots?from=\(day)&days=31"))
            guard !listing.slots.isEmpty else { break }
            slots += listing.slots.map(\.startsAt)
            first = first.addingTimeInterval(31 * 86_400)
        }
        return (partner, Array(slots.prefix(slotsWanted)))
    }

    /// The booking feature for every horoscope install (an admin's grant, as after a purchase), then each install's
    /// session renewed so its access token names it.
    func grantBooking(to people: [AppUser], admin: String) async throws -> [AppUser] {
        try await concurrently(people.indices, width: 8) { index in
            var user = people[index]
            _ = try await http.expect(
                "grant contact_fortune_teller", .POST, "\(stack.auth)/v1/admin/users/\(user.horoscope.accountId)/entitlements",
                body: #"{"entitlement":"contact_fortune_teller"}"#, token: admin)
            user.horoscope = try await renew(user.horoscope)
            return user
        }
    }

    /// Every install's session renewed (access tokens live `ACCESS_TOKEN_TTL_SECONDS`, 15 minutes by default).
    func renewAll(_ people: [AppUser]) async throws -> [AppUser] {
        try await concurrently(people.indices, width: 8) { index in
            var user = people[index]
            user.weather = try await renew(user.weather)
            user.places = try await renew(user.places)
            user.horoscope = try await renew(user.horoscope)
            return user
        }
    }

    func renew(_ install: Install) async throws -> Install {
        let answer = try await http.expect(
            "renew a session", .POST, "\(stack.auth)/v1/sessions/refresh", body: #"{"refreshToken":"\#(install.refreshToken)"}"#)
        let session = try StackHTTP.decode(Session.self, answer)
        return Install(accountId: session.account.id, accessToken: session.accessToken, refreshToken: session.refreshToken)
    }

    /// Each city's weather answered once (the first view may wait for weather-fetcher's on-demand fetch).
    func warmWeather(cities: [Int]) async throws {
        _ = try await concurrently(cities.indices, width: 8) { index in
            try await poll("weather of city \(cities[index])", within: .seconds(60)) {
                try await http.send(.GET, "\(stack.weather)/v1/cities/\(cities[index])/weather").isSuccess
            }
        }
    }

    /// Nearby places answered with places at every bench point (places-importer's first import of the bench area).
    func warmPlaces(points: [(lat: Double, lon: Double)], token: String) async throws {
        struct Nearby: Decodable {
            struct Place: Decodable { var id: String }
            var places: [Place]
        }
        for point in points {
            try await poll("places near \(point)", within: .seconds(120)) {
                let answer = try await http.send(
                    .GET, "\(stack.places)/v1/places?lat=\(point.lat)&lon=\(point.lon)&radius=1000", token: token)
                guard answer.isSuccess else { return false }
                return !(try StackHTTP.decode(Nearby.self, answer).places.isEmpty)
            }
        }
    }

    private func poll(_ what: String, within limit: Duration, _ check: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !(try await check()) {
            guard ContinuousClock.now < deadline else { throw BenchError("setup: no \(what) within \(limit)") }
            try await Task.sleep(for: .milliseconds(500))
        }
    }
}

/// Runs `work` for each element of `indices` with at most `width` at once; the results in the indices' order.
func concurrently<Indices: Collection & Sendable, Result: Sendable>(
    _ indices: Indices, width: Int, _ work: @escaping @Sendable (Indices.Element) async throws -> Result
) async throws -> [Result] where Indices.Element == Int {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var results: [Int: Result] = [:]
        var iterator = indices.makeIterator()
        for _ in 0..<width {
            guard let index = iterator.next() else { break }
            group.addTask { (index, try await work(index)) }
        }
        while let (index, result) = try await group.next() {
            results[index] = result
            if let next = iterator.next() { group.addTask { (next, try await work(next)) } }
        }
        return indices.map { results[$0]! }
    }
}
