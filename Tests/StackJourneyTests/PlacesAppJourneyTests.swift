import Foundation
import PlacesContract
import PlatformClient
import TestSupport
import Testing

extension StackJourneys {
    /// The "where I work" app's journey through the running stack (X5; P2, P3, P4, U9), with nothing but the
    /// generated clients: each install's account from auth, the map filled by an on-demand import from the fake
    /// Overpass, pins, a rating, a place added by address (fake Nominatim), and the rating seen by another install.
    @Suite("App journey through the stack: places")
    struct PlacesAppJourneyTests {
        /// Around Balzac Coffee, one of the fake Overpass's cafés.
        static let here = (lat: 52.5200, lon: 13.4050)

        @Test("install → nearby (on-demand import) → pin states → rate → add by address → another install sees the rating")
        func placesApp() async throws {
            let report = JourneyReport(app: "places")
            defer { report.finish() }
            let port = try JourneyProviders.current.port(for: "PLACES_OVERPASS_BASE_URL")
            try await withFakeHTTPServer(port: port, ProviderFakes.places) { provider in
                let settings = ProviderFakes.placesSettings(provider).merging(JourneyProviders.trustingInstalls) { $1 }
                try await RunningStack.run(settings: settings) { stack in
                    try await journey(stack, report: report)
                }
            }
        }

        func journey(_ stack: RunningStack, report: JourneyReport) async throws {
            let tokens = MemoryTokenStore()
            let app = PlatformClients.install(
                app: .places, installId: "journey-places-\(uniqueSuffix())", addresses: stack.addresses, store: tokens)
            try await report.step("install: an account from auth") { _ = try await app.session.accountId() }
            try await report.step("a spoilt stored token: the service's 401 invalid_token, one renewal, the request again") {
                let stored = try #require(await tokens.load())
                // Its signature's last characters changed: to the services, a token that is not auth's.
                let spoilt = String(stored.accessToken.dropLast(6)) + (stored.accessToken.hasSuffix("AAAAAA") ? "BBBBBB" : "AAAAAA")
                await tokens.save(
                    SessionTokens(accessToken: spoilt, refreshToken: stored.refreshToken, expiresAt: stored.expiresAt, accountId: stored.accountId))
                _ = try await nearby(app)
                let renewed = try #require(await tokens.load())
                try #require(renewed.accessToken != spoilt && renewed.refreshToken != stored.refreshToken, "renewed by the refresh token")
            }

            let balzac = try await report.eventually("nearby on open: the on-demand import fills the map") {
                try await nearby(app).first { $0.name == "Balzac Coffee" }
            }
            try #require(balzac.pin == .red, "a place the user has not touched is red")

            try await report.step("pin green") {
                let pinned = try await app.places.setPin(path: .init(placeId: balzac.id), body: .json(.init(colour: .green))).ok.body.json
                try #require(pinned.pin == .green)
            }
            // A running stack holds earlier runs' ratings: the count grows by this one.
            let ratingsBefore = try await app.places.getPlace(path: .init(placeId: balzac.id)).ok.body.json.ratings.count
            try await report.step("rate") {
                let rating = Components.Schemas.Rating(noise: 2, outlets: 4, wifi: 5, cost: 3, seating: 4, businessType: .coffeeShop)
                let rated = try await app.places.ratePlace(path: .init(placeId: balzac.id), body: .json(rating)).ok.body.json
                try #require(rated.ratings.count == ratingsBefore + 1)
            }
            try await report.step("clear the pin: a rated place is blue") {
                _ = try await app.places.clearPin(path: .init(placeId: balzac.id)).ok
                let mine = try await nearby(app).first { $0.id == balzac.id }
                try #require(mine?.pin == .blue)
            }

            let added = try await report.step("add by address (Nominatim)") {
                let place = Components.Schemas.NewPlace(name: "Journey Desk", address: "Rudi-Dutschke-Straße 12, Berlin", category: .coworking)
                return try await app.places.addPlace(body: .json(place)).created.body.json
            }
            try #require(added.review == .pending && abs(added.latitude - 52.5301) < 0.0001, "the address's coordinates, awaiting review")

            let other = PlatformClients.install(
                app: .places, installId: "journey-places-\(uniqueSuffix())", addresses: stack.addresses, store: MemoryTokenStore())
            try await report.step("another install sees the aggregate rating, not the place awaiting review") {
                let detail = try await other.places.getPlace(path: .init(placeId: balzac.id)).ok.body.json
                // Every run rates the wifi 5: the average stays 5 however many runs a running stack has seen.
                try #require(detail.ratings.count == ratingsBefore + 1 && detail.ratings.averages.additionalProperties["wifi"] == 5)
                try #require(detail.place.pin == .red && detail.myRating == nil)
                guard case .notFound = try await other.places.getPlace(path: .init(placeId: added.id)) else {
                    throw StackError(description: "a place awaiting review is its adder's only")
                }
            }
        }

        func nearby(_ app: PlatformClients) async throws -> [Components.Schemas.Place] {
            try await app.places.listPlacesNearby(query: .init(lat: Self.here.lat, lon: Self.here.lon, radius: 2_000)).ok.body.json.places
        }
    }
}
