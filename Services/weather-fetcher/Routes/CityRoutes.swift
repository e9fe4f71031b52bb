import Foundation
import Hummingbird
import Shared

/// Public city routes: search (W1), nearest (W2), one city, its weather (W3-W5), its share texts (W10).
/// The weather route personalises when an access token comes with it: the view joins the user's recents (W7).
struct CityRoutes {
    let cities: CityStore
    let reader: CityWeatherReader
    let userCities: UserCityStore
    let warnings: CityWarningStore
    let configuration: WeatherConfiguration
    let cache: CityWeatherCache

    static let maxPageSize = 100
    static let maxQueryLength = 100

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        router.get("v1/cities", use: search)
        router.get("v1/cities/nearest", use: nearest)
        router.get("v1/cities/:cityId", use: city)
        router.group("v1/cities/:cityId/weather")
            .add(middleware: AccessTokenMiddleware(verifier: verifier, optional: true))
            .get(use: weather)
        router.get("v1/cities/:cityId/share", use: share)
    }

    @Sendable func search(_ request: Request, context: PlatformRequestContext) async throws -> CityPageDTO {
        let query = request.uri.queryParameters
        guard let text = query["q"], !text.isEmpty else {
            throw APIError.badRequest("missing_q", "query parameter q (the name typed so far) is required")
        }
        guard text.count <= Self.maxQueryLength else {
            throw APIError.badRequest("invalid_q", "q must be at most \(Self.maxQueryLength) characters")
        }
        let match = try QueryParameter.choice(query, "match", default: "prefix", allowed: ["prefix", "contains"])
        let page = try QueryParameter.integer(query, "page", default: 1, range: 1...10_000)
        let pageSize = try QueryParameter.integer(query, "pageSize", default: 20, range: 1...Self.maxPageSize)
        guard let pattern = CitySearchPattern(query: String(text), contains: match == "contains") else {
            return CityPageDTO(cities: [], page: page, pageSize: pageSize, hasMore: false)
        }
        let found = try await cities.search(pattern, limit: pageSize + 1, offset: (page - 1) * pageSize)
        return CityPageDTO(
            cities: found.prefix(pageSize).map(CityDTO.init), page: page, pageSize: pageSize, hasMore: found.count > pageSize)
    }

    @Sendable func nearest(_ request: Request, context: PlatformRequestContext) async throws -> NearestCityDTO {
        let query = request.uri.queryParameters
        let latitude = try QueryParameter.double(query, "lat", range: -90...90)
        let longitude = try QueryParameter.double(query, "lon", range: -180...180)
        guard let (city, distance) = try await cities.nearest(latitude: latitude, longitude: longitude) else {
            throw APIError(.notFound, code: "catalogue_empty", message: "the city catalogue has not been imported")
        }
        return NearestCityDTO(city: CityDTO(city), distanceKm: Units.rounded(distance, places: 2))
    }

    @Sendable func city(_ request: Request, context: PlatformRequestContext) async throws -> CityDTO {
        CityDTO(try await requireCity(context))
    }

    @Sendable func weather(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let now = Date()
        let entry: CityWeatherCache.Entry
        if let id = Self.cityId(context), let cached = cache.entry(for: id, now: now) {
            entry = cached
        } else {
            let city = try await requireCity(context)
            guard let latest = try await reader.weather(for: city, now: now) else {
                throw APIError(
                    .serviceUnavailable, code: "weather_unavailable",
                    message: "no weather data for this city yet and the provider did not answer; try again shortly",
                    headers: [.retryAfter: "30"])
            }
            let active = try await warnings.active(cityId: city.id)
            let dto = try view(city: city, latest: latest, warnings: active, now: now, isFavourite: nil)
            entry = try cache.store(dto, body: ByteBuffer(bytes: Self.encoder.encode(dto)), for: city.id, now: now)
        }
        guard let user = context.user else { return JSONResponse.ok(entry.anonymousBody) }
        let cityId = entry.view.city.id
        let state = try await userCities.viewState(userId: user.id, cityId: cityId)
        if !state.isNewestRecentView { try await userCities.recordView(userId: user.id, cityId: cityId) }
        var personal = entry.view
        personal.isFavourite = state.isFavourite
        return JSONResponse.ok(ByteBuffer(bytes: try Self.encoder.encode(personal)))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    func view(
        city: City, latest: WeatherStore.Latest, warnings active: [CityWarningStore.ActiveWarning], now: Date, isFavourite: Bool?
    ) throws -> CityWeatherDTO {
        guard let presenter = CityWeatherPresenter(city: city, now: now) else {
            throw APIError(.unprocessableContent, code: "unknown_time_zone", message: "the city's time zone is unknown")
        }
        let report = latest.report
        let age = now.timeIntervalSince(report.fetchedAt)
        let minutes = max(0, Int(age / 60))
        let tooOld = age > configuration.staleAfter.seconds
        return CityWeatherDTO(
            city: CityDTO(city), provider: report.provider, updatedAt: report.fetchedAt, updatedMinutesAgo: minutes,
            updated: CityWeatherPresenter.updatedText(minutes: minutes), stale: tooOld || latest.failedSince != nil,
            staleReason: latest.failedSince != nil
                ? "the provider did not answer the last refresh; showing the last known data"
                : (tooOld ? "the data is older than the refresh schedule allows" : nil),
            current: presenter.current(report.current), rightNow: presenter.rightNow(report),
            hourly: presenter.hours(report), daily: presenter.days(report), hasActiveWarning: !active.isEmpty,
            warnings: active.map {
                WarningDTO(
                    announcementNumber: $0.announcementNumber, severity: $0.severity, status: $0.status,
                    statusDescription: $0.statusDescription, start: $0.onset, end: $0.ends)
            },
            isFavourite: isFavourite)
    }

    @Sendable func share(_ request: Request, context: PlatformRequestContext) async throws -> ShareDTO {
        let query = request.uri.queryParameters
        let kind = try QueryParameter.choice(query, "kind", default: "home", allowed: ["app", "home", "forecast", "warning"])
        let texts = ShareTexts(appName: configuration.appName)
        let city = try await requireCity(context)
        if kind == "app" {
            guard let link = configuration.appLink else {
                throw APIError(.notFound, code: "no_app_link", message: "no app link is configured (WEATHER_APP_LINK)")
            }
            return ShareDTO(kind: kind, text: texts.app(link: link))
        }
        if kind == "warning" {
            guard let warning = try await warnings.active(cityId: city.id).first else {
                throw APIError(.notFound, code: "no_active_warning", message: "\(city.name) has no active warning")
            }
            return ShareDTO(kind: kind, text: texts.warning(city: city, status: warning.status, statusDescription: warning.statusDescription))
        }
        let dayIndex = try QueryParameter.integer(query, "day", default: 0, range: 0...4)
        guard let latest = try await reader.weather(for: city), let presenter = CityWeatherPresenter(city: city, now: Date()) else {
            throw APIError(.serviceUnavailable, code: "weather_unavailable", message: "no weather data for this city yet",
                headers: [.retryAfter: "30"])
        }
        let report = latest.report
        if kind == "home" {
            return ShareDTO(kind: kind, text: texts.home(city: city, current: report.current))
        }
        let days = report.daily.filter { $0.date >= presenter.clock.dayKey(presenter.now) }
        guard dayIndex < days.count, let start = presenter.clock.startOfDay(days[dayIndex].date) else {
            throw APIError(.notFound, code: "no_forecast_for_day", message: "the provider has no forecast for day \(dayIndex)")
        }
        let day = days[dayIndex]
        let end = presenter.clock.startOfNextDay(after: start)
        let summary = ShareTexts.DaySummary(
            day: day, hours: report.hourly.filter { $0.time >= start && $0.time < end }, current: report.current)
        return ShareDTO(kind: kind, text: texts.forecast(city: city, dayName: presenter.clock.dayName(start), summary: summary))
    }

    private func requireCity(_ context: PlatformRequestContext) async throws -> City {
        try await Self.requireCity(context, in: cities)
    }

    /// The `cityId` path parameter when it is a valid GeoNames id.
    static func cityId(_ context: PlatformRequestContext) -> Int? {
        guard let text = context.parameters.get("cityId"), let id = Int(text), id > 0, id <= Int(Int32.max) else { return nil }
        return id
    }

    static func requireCity(_ context: PlatformRequestContext, in cities: CityStore) async throws -> City {
        guard let id = cityId(context) else {
            throw APIError.badRequest("invalid_city_id", "the city id must be a positive integer (a GeoNames id)")
        }
        guard let city = try await cities.find(id: id) else {
            throw APIError(.notFound, code: "city_not_found", message: "no city with id \(id)")
        }
        return city
    }
}
