/// How far one nearby question may reach (P2): a radius up to `maxRadiusMetres`, a box with south below north and
/// west left of east, at most `maxBoxDegrees` each way. The service answers from memory, so these bound the work
/// of one request.
package struct NearbyLimits: Sendable {
    package let maxRadiusMetres: Int
    package let maxBoxDegrees: Double

    package init(maxRadiusMetres: Int, maxBoxDegrees: Double) {
        self.maxRadiusMetres = maxRadiusMetres
        self.maxBoxDegrees = maxBoxDegrees
    }

    package func check(radiusMetres: Int) throws(PlacesRefusal) {
        guard radiusMetres <= maxRadiusMetres else { throw .radiusTooLarge(maxMetres: maxRadiusMetres) }
    }

    package func check(_ box: GeoBox) throws(PlacesRefusal) {
        guard box.isValid else { throw .invalidBox }
        guard box.north - box.south <= maxBoxDegrees, box.east - box.west <= maxBoxDegrees else { throw .boxTooLarge(maxDegrees: maxBoxDegrees) }
    }
}
