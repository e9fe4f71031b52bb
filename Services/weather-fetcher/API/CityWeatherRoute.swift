import Foundation
import Hummingbird
import PlatformCore
import PlatformHTTP

/// The city weather view (W3-W5), registered by hand: answers come from a short cache of encoded bodies
/// (`CityWeatherCache`), measured faster than the generated layer. It encodes the document's generated
/// `CityWeather` type, and the fuzzer checks its answers like every other operation's. With an access token
/// the view joins the user's recents (W7) and says whether the city is a favourite (`RecordCityView`), answering one
/// of the entry's bodies encoded in advance.
struct CityWeatherRoute {
    let cities: CityStore
    let reader: CityWeatherReader
    let recordView: RecordCityView<UserCityStore>
    let warnings: CityWarningStore
    let configuration: WeatherConfiguration
    let cache: CityWeatherCache

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("v1/cities/:cityId/weather", use: weather)
    }

    @Sendable func weather(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let now = Date()
        let entry: CityWeatherEntry
        if let id = Self.cityId(context), let cached = cache.value(for: id) {
            entry = cached
        } else {
            let city = try await requireCity(context)
            let found = try await reader.weather(for: city, requestedBy: ClientAddress.limitKey(context.remoteAddress), now: now)
            guard let latest = found else {
                throw APIError(
                    .serviceUnavailable, code: "weather_unavailable",
                    message: "no weather data for this city yet and the provider did not answer; try again shortly",
                    headers: [.retryAfter: "30"])
            }
            let active = try await warnings.active(cityId: city.id)
            let dto = try view(city: city, latest: latest, warnings: active, now: now, isFavourite: nil)
            entry = try cache.store(dto, encoder: Self.encoder, for: city.id, now: now)
        }
        guard let user = context.user else { return JSONResponse.ok(entry.anonymousBody) }
        let isFavourite = try await recordView(userId: user.id, cityId: entry.view.city.id, at: now)
        return JSONResponse.ok(entry.personalBody(isFavourite: isFavourite))
    }

    /// How every city weather answer is encoded (the tests compare bodies with it).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    func view(
        city: City, latest: LatestWeather, warnings active: [ActiveCityWarning], now: Date, isFavourite: Bool?
    ) throws -> CityWeatherDTO {
        guard let presenter = CityWeatherPresenter(city: city, now: now) else {
            throw APIError(.unprocessableContent, code: "unknown_time_zone", message: "the city's time zone is unknown")
        }
        let report = latest.report
        let freshness = Freshness(fetchedAt: report.fetchedAt, failedSince: latest.failedSince, now: now, staleAfter: configuration.staleAfter)
        return CityWeatherDTO(
            city: CityDTO(city), provider: report.provider, updatedAt: report.fetchedAt, updatedMinutesAgo: freshness.minutesAgo,
            updated: CityWeatherPresenter.updatedText(minutes: freshness.minutesAgo), stale: freshness.isStale,
            staleReason: freshness.staleReason,
            current: presenter.current(report.current), rightNow: presenter.rightNow(report),
            hourly: presenter.hours(report), daily: presenter.days(report), hasActiveWarning: !active.isEmpty,
            warnings: active.map {
                Components.Schemas.CityWarning(
                    announcementNumber: $0.announcementNumber, severity: $0.severity, status: $0.status,
                    statusDescription: $0.statusDescription, start: $0.onset, end: $0.ends,
                    startText: WarningDateFormat.string($0.onset, timeZone: city.timeZone),
                    endText: WarningDateFormat.string($0.ends, timeZone: city.timeZone))
            },
            isFavourite: isFavourite)
    }

    private func requireCity(_ context: PlatformRequestContext) async throws -> City {
        guard let id = Self.cityId(context) else {
            throw JSONBody.schemaViolation(["cityId": "must be an integer from 1 to \(Int32.max) (a GeoNames id)"])
        }
        return try await Self.requireCity(id, in: cities)
    }

    /// The `cityId` path parameter when it is a valid GeoNames id.
    static func cityId(_ context: PlatformRequestContext) -> Int? {
        guard let text = context.parameters.get("cityId"), let id = Int(text), id > 0, id <= Int(Int32.max) else { return nil }
        return id
    }

    static func requireCity(_ id: Int, in cities: CityStore) async throws -> City {
        try checkCityId(id)
        guard let city = try await cities.find(id: id) else { throw WeatherErrors.cityNotFound(id) }
        return city
    }

    /// A path's city id is a GeoNames id (the shape; whether the catalogue has it is the use cases' to say).
    static func checkCityId(_ id: Int) throws {
        guard id > 0, id <= Int(Int32.max) else {
            throw JSONBody.schemaViolation(["cityId": "must be an integer from 1 to \(Int32.max) (a GeoNames id)"])
        }
    }
}
