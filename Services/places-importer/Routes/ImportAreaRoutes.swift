import Foundation
import Hummingbird
import Shared

/// Admin routes for import areas (P1): add an area (imported at once), run one now, see their progress.
struct ImportAreaRoutes {
    let areas: ImportAreaStore
    let maxAreaDegrees: Double

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let group = router.group("v1/admin/import-areas").add(middleware: AccessTokenMiddleware(verifier: verifier, allowedRoles: [.admin]))
        group.get(use: list)
        group.post(use: create)
        group.post(":areaId/run", use: run)
    }

    @Sendable func list(_ request: Request, context: PlatformRequestContext) async throws -> ImportAreasDTO {
        ImportAreasDTO(areas: try await areas.list().map(ImportAreaDTO.init))
    }

    @Sendable func create(_ request: Request, context: PlatformRequestContext) async throws -> ImportAreasDTO {
        let body = try await JSONBody.decode(ImportAreaRequest.self, request, context)
        var problems: [String: String] = [:]
        let name = body.name?.trimmingCharacters(in: .whitespaces) ?? ""
        if name.isEmpty || name.count > 100 { problems["name"] = "is required (at most 100 characters)" }
        guard let south = body.south, let west = body.west, let north = body.north, let east = body.east else {
            problems["box"] = "south, west, north and east are required"
            throw JSONBody.validationError(problems)
        }
        let box = GeoBox(south: south, west: west, north: north, east: east)
        if !box.isValid { problems["box"] = "must lie within ±90/±180 with south < north and west < east" }
        if north - south > maxAreaDegrees || east - west > maxAreaDegrees {
            problems["box"] = "may span at most \(maxAreaDegrees)° each way"
        }
        guard problems.isEmpty else { throw JSONBody.validationError(problems) }
        try await areas.upsert(name: name, box: box, runNow: true)
        return ImportAreasDTO(areas: try await areas.list().map(ImportAreaDTO.init))
    }

    @Sendable func run(_ request: Request, context: PlatformRequestContext) async throws -> ImportAreasDTO {
        guard let text = context.parameters.get("areaId"), let id = UUID(uuidString: text) else {
            throw APIError.badRequest("invalid_area_id", "the area id must be a UUID")
        }
        guard try await areas.runNow(id) else { throw APIError(.notFound, code: "area_not_found", message: "no import area \(id)") }
        return ImportAreasDTO(areas: try await areas.list().map(ImportAreaDTO.init))
    }
}
