import Foundation
import Hummingbird
import Shared

/// The signed-in user's notification settings and devices (A4, A5), and the delivery log for admins.
struct NotificationRoutes {
    let users: UserStore
    let queue: PushQueue

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let me = router.group("v1/me").add(middleware: AccessTokenMiddleware(verifier: verifier))
        me.get("notification-settings", use: settings)
        me.put("notification-settings", use: updateSettings)
        me.get("devices", use: devices)
        me.put("devices/:token", use: register)
        me.delete("devices/:token", use: unregister)
        router.group("v1/admin/push-deliveries").add(middleware: AccessTokenMiddleware(verifier: verifier, allowedRoles: [.admin]))
            .get(use: deliveries)
    }

    @Sendable func settings(_ request: Request, context: PlatformRequestContext) async throws -> SettingsDTO {
        SettingsDTO(try await users.settings(userId: try context.requireUser().id))
    }

    /// Changes only what the body names; everything else keeps its value (on by default).
    @Sendable func updateSettings(_ request: Request, context: PlatformRequestContext) async throws -> SettingsDTO {
        let user = try context.requireUser().id
        let body = try await JSONBody.decode(SettingsRequest.self, request, context)
        var problems: [String: String] = [:]
        for (index, favourite) in (body.favourites ?? []).enumerated() {
            if (favourite.cityId ?? 0) <= 0 { problems["favourites[\(index)].cityId"] = "must be a positive city id" }
        }
        if body.currentLocation == nil && body.favourites == nil {
            problems["body"] = "give currentLocation, favourites or both"
        }
        guard problems.isEmpty else { throw JSONBody.validationError(problems) }
        if let current = body.currentLocation {
            try await users.setSetting(userId: user, cityId: UserStore.currentLocation, forecasts: current.forecasts, warnings: current.warnings)
        }
        for favourite in body.favourites ?? [] {
            try await users.setSetting(userId: user, cityId: favourite.cityId!, forecasts: favourite.forecasts, warnings: favourite.warnings)
        }
        return SettingsDTO(try await users.settings(userId: user))
    }

    @Sendable func devices(_ request: Request, context: PlatformRequestContext) async throws -> DevicesDTO {
        let devices = try await users.devices(userId: try context.requireUser().id)
        return DevicesDTO(devices: devices.map { DeviceDTO(token: $0.token, currentCityId: $0.currentCityId, timeZone: $0.timeZone) })
    }

    /// Registers the device's push token with its current location (a city id from weather-fetcher) and,
    /// optionally, its time zone. Registering again updates both.
    @Sendable func register(_ request: Request, context: PlatformRequestContext) async throws -> DeviceDTO {
        let user = try context.requireUser().id
        let token = try Self.token(context)
        let body = try await JSONBody.decode(DeviceRequest.self, request, context)
        var problems: [String: String] = [:]
        if let city = body.currentCityId, city <= 0 { problems["currentCityId"] = "must be a positive city id" }
        if let zone = body.timeZone, TimeZone(identifier: zone) == nil { problems["timeZone"] = "must be an IANA time zone such as Europe/Berlin" }
        guard problems.isEmpty else { throw JSONBody.validationError(problems) }
        try await users.register(.init(token: token, currentCityId: body.currentCityId, timeZone: body.timeZone), userId: user)
        return DeviceDTO(token: token, currentCityId: body.currentCityId, timeZone: body.timeZone)
    }

    @Sendable func unregister(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let user = try context.requireUser().id
        guard try await users.unregister(token: try Self.token(context), userId: user) else {
            throw APIError(.notFound, code: "device_not_found", message: "you have no device with that token")
        }
        return Response(status: .noContent)
    }

    @Sendable func deliveries(_ request: Request, context: PlatformRequestContext) async throws -> DeliveriesDTO {
        let query = request.uri.queryParameters
        let limit = try QueryParameter.integer(query, "limit", default: 100, range: 1...1_000)
        let userId = query["userId"].map(String.init)
        return DeliveriesDTO(deliveries: try await queue.log(userId: userId, limit: limit).map(DeliveryDTO.init))
    }

    /// APNs device tokens are hexadecimal (64 digits today; longer ones are allowed for the future).
    static func token(_ context: PlatformRequestContext) throws -> String {
        guard let token = context.parameters.get("token")?.lowercased(), (64...200).contains(token.count),
            token.allSatisfy(\.isHexDigit)
        else {
            throw APIError.badRequest("invalid_device_token", "the device token must be 64 to 200 hexadecimal digits")
        }
        return token
    }
}
