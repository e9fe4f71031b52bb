import Foundation
import PlatformCore
import PlatformHTTP

/// The warning-detector API generated from `openapi.yaml`: active warnings (A2, A3), news (A6), the user's
/// notification settings and devices (A4, A5), the admin's delivery log. Every operation runs behind an
/// optional `AccessTokenMiddleware`; the signed-in and admin operations take the caller from `RequestScope`.
struct WarningAPI: APIProtocol {
    let warnings: WarningStore
    let users: UserStore
    let queue: PushQueue
    let news: NewsStore
    let publish: PublishNews
    let changeSettings: ChangeNotificationSettings
    let register: RegisterDevice
    let unregister: UnregisterDevice
    static let maxBoxResults = 1_000

    func listCityWarnings(_ input: Operations.ListCityWarnings.Input) async throws -> Operations.ListCityWarnings.Output {
        let cityId = input.path.cityId
        guard cityId > 0, cityId <= Int(Int32.max) else { throw JSONBody.schemaViolation(["cityId": "must be a GeoNames id from 1"]) }
        return .ok(.init(body: .json(.init(warnings: try await warnings.active(cityId: cityId).map(Components.Schemas.Warning.init)))))
    }

    func listWarningsInBox(_ input: Operations.ListWarningsInBox.Input) async throws -> Operations.ListWarningsInBox.Output {
        let q = input.query
        try BoxRanges.check(south: q.south, west: q.west, north: q.north, east: q.east)
        guard q.south < q.north, q.west < q.east else {
            throw APIError(.unprocessableContent, code: "invalid_box", message: "south must be below north and west left of east")
        }
        let found = try await warnings.active(in: (q.south, q.west, q.north, q.east), limit: Self.maxBoxResults)
        return .ok(.init(body: .json(.init(warnings: found.map(Components.Schemas.Warning.init)))))
    }

    func listNews(_ input: Operations.ListNews.Input) async throws -> Operations.ListNews.Output {
        let page = input.query.page ?? 1, pageSize = input.query.pageSize ?? 50
        try Paging.check(page: page, pageSize: pageSize)
        let items = try await news.list(limit: pageSize + 1, offset: (page - 1) * pageSize)
        return .ok(
            .init(
                body: .json(
                    .init(
                        news: items.prefix(pageSize).map(Components.Schemas.News.init), page: page, pageSize: pageSize,
                        hasMore: items.count > pageSize))))
    }

    func getNews(_ input: Operations.GetNews.Input) async throws -> Operations.GetNews.Output {
        guard let id = UUID(uuidString: input.path.newsId) else { throw JSONBody.schemaViolation(["newsId": "must be a UUID"]) }
        guard let item = try await news.find(id) else {
            throw APIError(.notFound, code: "news_not_found", message: "no news item with id \(id)")
        }
        return .ok(.init(body: .json(.init(item))))
    }

    func publishNews(_ input: Operations.PublishNews.Input) async throws -> Operations.PublishNews.Output {
        let admin = try RequestScope.requireRole([.admin]).id
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let draft = try NewsRules.draft(from: body)
        let item = try await publish(draft, by: admin)
        return .created(.init(headers: .init(location: "/v1/news/\(item.id)"), body: .json(.init(item))))
    }

    func getNotificationSettings(_ input: Operations.GetNotificationSettings.Input) async throws -> Operations.GetNotificationSettings.Output {
        .ok(.init(try await users.settings(userId: try RequestScope.requireUser().id)))
    }

    /// Changes only what the body names; everything else keeps its value (on by default).
    func updateNotificationSettings(
        _ input: Operations.UpdateNotificationSettings.Input
    ) async throws -> Operations.UpdateNotificationSettings.Output {
        let user = try RequestScope.requireUser().id
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let favourites = body.favourites ?? []
        var outside: [String: String] = [:]
        for (index, favourite) in favourites.enumerated() where !(1...Int(Int32.max)).contains(favourite.cityId) {
            outside["favourites[\(index)].cityId"] = "must be a GeoNames id from 1"
        }
        // The rule is the use case's; asked here too so that one answer names every field in the way.
        if !NotificationSettingsRules.allows(favouriteCount: favourites.count) { outside["favourites"] = WarningErrors.favouritesField }
        guard outside.isEmpty else { throw JSONBody.schemaViolation(outside) }
        if body.currentLocation == nil && body.favourites == nil {
            throw JSONBody.validationError(["body": "give currentLocation, favourites or both"])
        }
        let settings = try await changeSettings(
            userId: user, currentLocation: body.currentLocation.map { .init(forecasts: $0.forecasts, warnings: $0.warnings) },
            favourites: favourites.map { ($0.cityId, .init(forecasts: $0.forecasts, warnings: $0.warnings)) })
        return .ok(.init(settings))
    }

    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        let devices = try await users.devices(userId: try RequestScope.requireUser().id)
        return .ok(
            .init(body: .json(.init(devices: devices.map(Components.Schemas.Device.init)))))
    }

    /// Registers the device's push token with its current location (a city id from weather-fetcher) and,
    /// optionally, its time zone. Registering again updates both.
    func registerDevice(_ input: Operations.RegisterDevice.Input) async throws -> Operations.RegisterDevice.Output {
        let user = try RequestScope.requireUser().id
        let token = try Self.token(input.path.token)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        if let city = body.currentCityId, !(1...Int(Int32.max)).contains(city) {
            throw JSONBody.schemaViolation(["currentCityId": "must be a GeoNames id from 1"])
        }
        let timeZone = body.timeZone.map(RequestText.withoutNUL)
        if let zone = timeZone, TimeZone(identifier: zone) == nil {
            throw JSONBody.validationError(["timeZone": "must be an IANA time zone such as Europe/Berlin"])
        }
        if let installId = body.installId, !(8...100).contains(RequestText.length(installId)) {
            throw JSONBody.schemaViolation(["installId": "must be 8 to 100 characters"])
        }
        let installId = body.installId.map(RequestText.withoutNUL)
        let app = body.app.flatMap { PushApp(rawValue: $0.rawValue) } ?? .weather
        if let language = body.language, !Self.isLanguageTag(language) {
            throw JSONBody.schemaViolation(["language": "a language such as en or th"])
        }
        let device = RegisteredDevice(token: token, currentCityId: body.currentCityId, timeZone: timeZone, app: app, language: body.language)
        try await register(device, installId: installId, userId: user)
        return .ok(.init(body: .json(.init(device))))
    }

    /// `en`, `th`, `en-GB`: what the document's pattern allows (the generated layer does not check patterns).
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        return parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isLetter })
    }

    func unregisterDevice(_ input: Operations.UnregisterDevice.Input) async throws -> Operations.UnregisterDevice.Output {
        let user = try RequestScope.requireUser().id
        let token = try Self.token(input.path.token)
        try await unregister(token: token, userId: user)
        return .noContent(.init())
    }

    func listPushDeliveries(_ input: Operations.ListPushDeliveries.Input) async throws -> Operations.ListPushDeliveries.Output {
        _ = try RequestScope.requireRole([.admin])
        let limit = input.query.limit ?? 100
        guard (1...1_000).contains(limit) else { throw JSONBody.schemaViolation(["limit": "must be in 1...1000"]) }
        if let userId = input.query.userId, !(1...200).contains(RequestText.length(userId)) {
            throw JSONBody.schemaViolation(["userId": "must be 1 to 200 characters"])
        }
        let userId = input.query.userId.map(RequestText.withoutNUL)
        let entries = try await queue.log(userId: userId, limit: limit)
        return .ok(.init(body: .json(.init(deliveries: entries.map(Components.Schemas.Delivery.init)))))
    }

    /// APNs device tokens are hexadecimal (64 digits today; longer ones are allowed for the future).
    static func token(_ text: String) throws -> String {
        let token = text.lowercased()
        guard (64...200).contains(token.count), token.allSatisfy(\.isHexDigit) else {
            throw JSONBody.schemaViolation(["token": "must be 64 to 200 hexadecimal digits"])
        }
        return token
    }
}
