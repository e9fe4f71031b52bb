import Foundation
import Hummingbird
import Shared

/// Active warnings for a city and for the map's box (A2, A3). Public: warnings are for everyone.
struct WarningRoutes {
    let warnings: WarningStore
    static let maxBoxResults = 1_000

    func add(to router: Router<PlatformRequestContext>) {
        router.get("v1/cities/:cityId/warnings", use: forCity)
        router.get("v1/warnings", use: inBox)
    }

    @Sendable func forCity(_ request: Request, context: PlatformRequestContext) async throws -> WarningListDTO {
        guard let text = context.parameters.get("cityId"), let cityId = Int(text), cityId > 0 else {
            throw APIError.badRequest("invalid_city_id", "the city id must be a positive integer")
        }
        return WarningListDTO(warnings: try await warnings.active(cityId: cityId).map(WarningDTO.init))
    }

    @Sendable func inBox(_ request: Request, context: PlatformRequestContext) async throws -> WarningListDTO {
        let box = try QueryParameter.box(request.uri.queryParameters)
        let found = try await warnings.active(in: (box.south, box.west, box.north, box.east), limit: Self.maxBoxResults)
        return WarningListDTO(warnings: found.map(WarningDTO.init))
    }
}
