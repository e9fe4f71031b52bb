/// How far one nearby question may reach (P2): a radius up to `maxRadiusMetres`, a box with south below north and
/// west left of east, at most `maxBoxDegrees` each way. The service answers from memory, so these bound the work
/// of one request.
struct NearbyLimits: Sendable {
    let maxRadiusMetres: Int
    let maxBoxDegrees: Double

    func check(radiusMetres: Int) throws(PlacesRefusal) {
        guard radiusMetres <= maxRadiusMetres else { throw .radiusTooLarge(maxMetres: maxRadiusMetres) }
    }

    func check(_ box: GeoBox) throws(PlacesRefusal) {
        guard box.isValid else { throw .invalidBox }
        guard box.north - box.south <= maxBoxDegrees, box.east - box.west <= maxBoxDegrees else { throw .boxTooLarge(maxDegrees: maxBoxDegrees) }
    }
}
