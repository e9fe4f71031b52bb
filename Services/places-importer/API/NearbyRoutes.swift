import Foundation
import Hummingbird
import PlatformHTTP

/// The nearby lists (P2), registered by hand: they answer from the in-memory index with JSON written by
/// hand (`PlaceJSON`), measured faster than the generated layer's decoding and encoding. Their entries in
/// `openapi.yaml` (`listPlacesNearby`, `listPlacesInBox`) are checked against their answers by a test and
/// by the fuzzer like every other operation.
struct NearbyRoutes {
    let nearbyPlaces: NearbyPlaces
    let configuration: PlacesConfiguration
    /// Nil when on-demand imports are off (`PLACES_ON_DEMAND=false`): lists then carry no `importing`.
    let onDemand: OnDemandImports?

    var limits: NearbyLimits { NearbyLimits(maxRadiusMetres: configuration.maxRadiusMetres, maxBoxDegrees: configuration.maxBoxDegrees) }

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("v1/places", use: Self.withDocumentCodes(nearby))
        group.get("v1/places/in-box", use: Self.withDocumentCodes(inBox))
    }

    /// The shared query readers answer `invalid_<name>`/`missing_<name>`; the contract-first routes answer
    /// every mismatch with the document as `invalid_request` (the message names the parameter), so these do too.
    static func withDocumentCodes(
        _ handler: @escaping @Sendable (Request, PlatformRequestContext) async throws -> Response
    ) -> @Sendable (Request, PlatformRequestContext) async throws -> Response {
        { request, context in
            do {
                return try await handler(request, context)
            } catch let error as APIError where error.status == .badRequest {
                throw APIError(.badRequest, code: "invalid_request", message: error.message, details: error.details)
            }
        }
    }

    /// `?lat=&lon=&radius=` (metres), nearest first.
    @Sendable func nearby(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let caller = try context.requireMember()
        let user = caller.id
        let query = request.uri.queryParameters
        let (page, pageSize) = try Self.paging(query)
        let latitude = try QueryParameter.double(query, "lat", range: -90...90)
        let longitude = try QueryParameter.double(query, "lon", range: -180...180)
        let radius = try QueryParameter.integer(query, "radius", default: 1_000, range: 1...50_000)
        try limits.check(radiusMetres: radius)
        let area = NearbyPlaces.Area.circle(latitude: latitude, longitude: longitude, radiusMetres: Double(radius))
        let importing = await onDemand?.importing(latitude: latitude, longitude: longitude, user: user, mayQueue: caller.trusted)
        return JSONResponse.ok(PlaceJSON.page(try await nearbyPlaces.page(area, user: user, page: page, pageSize: pageSize, importing: importing)))
    }

    /// `?south=&west=&north=&east=`, by name.
    @Sendable func inBox(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let caller = try context.requireMember()
        let user = caller.id
        let query = request.uri.queryParameters
        let (page, pageSize) = try Self.paging(query)
        let box = GeoBox(
            south: try QueryParameter.double(query, "south", range: -90...90), west: try QueryParameter.double(query, "west", range: -180...180),
            north: try QueryParameter.double(query, "north", range: -90...90), east: try QueryParameter.double(query, "east", range: -180...180))
        try limits.check(box)
        let centre = box.centre
        let importing = await onDemand?.importing(
            latitude: centre.latitude, longitude: centre.longitude, user: user, mayQueue: caller.trusted)
        return JSONResponse.ok(
            PlaceJSON.page(try await nearbyPlaces.page(.box(box), user: user, page: page, pageSize: pageSize, importing: importing)))
    }

    static func paging(_ query: Parameters) throws -> (page: Int, pageSize: Int) {
        (
            try QueryParameter.integer(query, "page", default: 1, range: Paging.pages),
            try QueryParameter.integer(query, "pageSize", default: 50, range: Paging.pageSizes)
        )
    }
}
