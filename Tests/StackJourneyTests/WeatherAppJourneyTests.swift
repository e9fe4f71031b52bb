import AnalyticsContract
import Crypto
import Foundation
import PlatformClient
import Synchronization
import TestSupport
import Testing
import WarningsContract
import WeatherContract

extension StackJourneys {
    /// The weather app's journey through the running stack (X5; W1-W10, A1-A5, N1, N2), with the generated
    /// clients only: search, nearest city, the city view and recents, a favourite, warning settings, a device, then
    /// a forecast crossing the heat threshold on a scheduled refresh from the fake Open-Meteo, the warning on the map,
    /// in the city view and pushed under the weather app's topic (a fake APNs as strict as Apple's), its share text,
    /// and the session's telemetry in the dashboard's numbers.
    @Suite("App journey through the stack: weather")
    struct WeatherAppJourneyTests {
        static let bangkok = 1_609_350
        static let here = (lat: 13.75, lon: 100.50)

        /// Open-Meteo's answers without thunderstorms: a mild day everywhere (no warning), until the journey turns the
        /// heat up near Bangkok.
        final class Forecasts: Sendable {
            let heat = Mutex<Double>(20)

            var handler: FakeHTTPServer.Handler {
                { [self] request in
                    guard request.path == "/v1/forecast" else { return .init(status: 404, body: "{}") }
                    let latitudes = (request.query["latitude"] ?? "").split(separator: ",").compactMap { Double($0) }
                    let longitudes = (request.query["longitude"] ?? "").split(separator: ",").compactMap { Double($0) }
                    let zones = (request.query["timezone"] ?? "").split(separator: ",").map(String.init)
                    let hot = heat.withLock { $0 }
                    let answers = zip(zip(latitudes, longitudes), zones).map { place, zone in
                        let nearBangkok = abs(place.0 - WeatherAppJourneyTests.here.lat) < 0.5 && abs(place.1 - WeatherAppJourneyTests.here.lon) < 0.5
                        return OpenMeteoFake.answer(for: [(place.0, place.1, zone)], temperature: nearBangkok ? hot : 12.3, codes: [0, 1, 2, 3])
                    }
                    return .init(body: answers.count == 1 ? answers[0] : "[" + answers.joined(separator: ",") + "]")
                }
            }
        }

        @Test("install → search → nearest → view → favourite → settings → device → heat on refresh → map, view, push → share → telemetry")
        func weatherApp() async throws {
            let report = JourneyReport(app: "weather")
            defer { report.finish() }
            let providers = JourneyProviders.current
            let smtp = try providers.mailSink()
            let forecasts = Forecasts()
            let certificate = try providers.pushCertificate()
            let pushKeyPEM = try providers.pushKeyPEM()
            let pushKey = try P256.Signing.PrivateKey(pemRepresentation: pushKeyPEM)
            let apns = StrictAPNs(provider: .init(key: pushKey.publicKey, keyId: JourneyProviders.pushKeyId, teamId: JourneyProviders.pushTeamId))
            try await withFakeHTTPServer(port: try providers.port(for: "OPEN_METEO_BASE_URL"), forecasts.handler) { openMeteo in
                try await withFakeHTTPServer(port: try providers.port(for: "PUSH_BASE_URL"), tls: certificate, apns.handler) { push in
                    var settings = try JourneyPeople.settings(smtp: smtp)
                    settings.merge([
                        "OPEN_METEO_BASE_URL": openMeteo.baseURL, "WEATHER_REFRESH_INTERVAL_SECONDS": "10", "WEATHER_REFRESH_TICK_MS": "1000",
                        "PUSH_BASE_URL": push.baseURL, "PUSH_CA_FILE": certificate.certificateFile, "PUSH_TEAM_ID": JourneyProviders.pushTeamId,
                        "PUSH_KEY_ID": JourneyProviders.pushKeyId, "PUSH_SIGNING_KEY": pushKeyPEM,
                    ]) { $1 }
                    try await RunningStack.run(settings: settings) { stack in
                        try await journey(stack, report: report, apns: apns, forecasts: forecasts)
                    }
                }
            }
        }

        func journey(_ stack: RunningStack, report: JourneyReport, apns: StrictAPNs, forecasts: Forecasts) async throws {
            // A running stack holds earlier runs' numbers: the dashboard's are compared with these.
            let admin = try await JourneyPeople.admin(stack)
            let before = try await report.step("the dashboard's numbers before the session") { try await DashboardNumbers(admin) }
            let app = PlatformClients.install(
                app: .weather, installId: "journey-weather-\(uniqueSuffix())", addresses: stack.addresses, store: MemoryTokenStore())
            let telemetry = TelemetryBatcher(client: app.analytics, appKey: try #require(stack.telemetryKeys["weather"]))
            let device = "journey-device-\(uniqueSuffix())"
            let userId = try await report.step("install: an account from auth") { try await app.session.accountId() }
            func track(_ kind: TelemetryBatcher.Event.KindPayload, feature: String? = nil, screen: String? = nil, city: Int? = nil) async {
                await telemetry.record(
                    .init(
                        id: UUID().uuidString.lowercased(), kind: kind, occurredAt: Date(), deviceId: device, userId: userId, platform: .ios,
                        appVersion: "1.0", feature: feature, screen: screen, cityId: city))
            }
            await track(.install)

            try await report.step("search \"ban\", scrolling the alphabetical list to Bangkok") {
                var page = 1
                while true {
                    let found = try await app.weather.searchCities(query: .init(q: "ban", page: page, pageSize: 100)).ok.body.json
                    if found.cities.contains(where: { $0.id == Self.bangkok }) { break }
                    guard found.hasMore, page < 30 else { throw StackError(description: "Bangkok is not among the cities for \"ban\"") }
                    page += 1
                }
                await track(.featureUsed, feature: "search")
            }
            try await report.step("the nearest city") {
                let nearest = try await app.weather.nearestCity(query: .init(lat: Self.here.lat, lon: Self.here.lon)).ok.body.json
                try #require(nearest.city.id == Self.bangkok)
            }
            // A running stack may still hold an earlier run's heat: the next refresh from the mild fake cancels it.
            try await report.eventually("the city view: a mild day, no warning") {
                let view = try await app.weather.getCityWeather(path: .init(cityId: Self.bangkok)).ok.body.json
                return view.hasActiveWarning ? nil : view
            }
            try await report.step("the city view is in recents") {
                await track(.cityViewed, city: Self.bangkok)
                let recents = try await app.weather.listRecentCities().ok.body.json.cities
                try #require(recents.first?.city.id == Self.bangkok)
            }
            try await report.step("favourite") {
                let marked = try await app.weather.markFavourite(path: .init(cityId: Self.bangkok)).ok.body.json
                let favourites = try await app.weather.listFavourites().ok.body.json.cities
                try #require(marked.isFavourite && favourites.map(\.id) == [Self.bangkok])
                await track(.featureUsed, feature: "favourite")
            }
            try await report.eventually("settings: the favourite reached warning-detector over the broker, warnings on") {
                let settings = try await app.warnings.getNotificationSettings().ok.body.json
                return settings.favourites.first { $0.cityId == Self.bangkok && $0.warnings } != nil ? true : nil
            }
            try await report.step("settings: no daily forecast for the current location, warnings kept") {
                let changed = try await app.warnings.updateNotificationSettings(
                    body: .json(.init(currentLocation: .init(forecasts: false)))
                ).ok.body.json
                try #require(changed.currentLocation.forecasts == false && changed.currentLocation.warnings == true)
            }

            let phone = JourneyPeople.deviceToken()
            apns.issue(phone, to: "com.example.weather")
            try await report.step("register the phone in Bangkok") {
                let change = WarningsContract.Components.Schemas.DeviceChange(
                    currentCityId: Self.bangkok, timeZone: "Asia/Bangkok", installId: device, app: .weather)
                _ = try await app.warnings.registerDevice(path: .init(token: phone), body: .json(change)).ok
            }

            forecasts.heat.withLock { $0 = 41 }
            try await report.eventually("a refresh brings 41 °C: the warning in the city view", within: .seconds(120)) {
                let view = try await app.weather.getCityWeather(path: .init(cityId: Self.bangkok)).ok.body.json
                return view.hasActiveWarning && !view.warnings.isEmpty ? true : nil
            }
            try await report.step("the warning on the map") {
                let map = try await app.weather.getMap(query: .init(south: 13, west: 100, north: 14.5, east: 101)).ok.body.json
                try #require(map.cities.first { $0.id == Self.bangkok }?.hasActiveWarning == true)
            }
            try await report.eventually("the push reaches the phone under the weather app's topic", within: .seconds(90)) {
                apns.sent(to: phone).first { $0.contains("warning") && $0.contains("\(Self.bangkok)") }
            }
            try await report.step("share the warning") {
                let shared = try await app.weather.shareCity(path: .init(cityId: Self.bangkok), query: .init(kind: .warning)).ok.body.json
                try #require(shared.text.contains("Bangkok"), "\(shared.text)")
                await track(.featureUsed, feature: "share")
            }

            try await report.step("the session's telemetry goes in one batch") {
                await telemetry.flush()
                try #require(await telemetry.tally == .init(accepted: 5, rejected: 0, dropped: 0), "install, 3 features, a city")
            }
            try await report.eventually("the dashboard counts the install, the features and the city") {
                let after = try await DashboardNumbers(admin)
                let used: Set = ["search", "favourite", "share"]
                let counted = used.allSatisfy { after.users[$0, default: 0] == before.users[$0, default: 0] + 1 }
                // No feature the session did not use was counted for it.
                let othersKept = after.users.filter { !used.contains($0.key) } == before.users.filter { !used.contains($0.key) }
                return counted && othersKept && after.downloads == before.downloads + 1 && after.topCities.contains(Int64(Self.bangkok))
                    ? after : nil
            }
        }

        /// The weather app's numbers on the dashboard: users per feature, downloads, the most viewed cities.
        struct DashboardNumbers: Sendable {
            let users: [String: Int64]
            let downloads: Int64
            let topCities: [Int64]

            init(_ admin: PlatformClients) async throws {
                let features = try await admin.analytics.listFeatures(query: .init(app: .weather)).ok.body.json.items
                let home = try await admin.analytics.getHomeStats().ok.body.json
                users = Dictionary(features.map { ($0.name, $0.users) }, uniquingKeysWith: max)
                downloads = home.downloads.byApp.first { $0.key == "weather" }?.count ?? 0
                topCities = home.topLocations.map(\.cityId)
            }
        }
    }
}
