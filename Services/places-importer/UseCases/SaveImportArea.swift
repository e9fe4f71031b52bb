import Foundation

/// An admin adds an import area, or moves the one of that name (P1): the box must be importable
/// (`ImportAreaBox`), and the area is imported at once.
package struct SaveImportArea: Sendable {
    package let areas: any ImportAreaRegistry
    /// How far an import area may span each way.
    package let maxDegrees: Double

    package init(areas: any ImportAreaRegistry, maxDegrees: Double) {
        self.areas = areas
        self.maxDegrees = maxDegrees
    }

    /// Throws `PlacesRefusal.importAreaBox` for a box that cannot be an import area; then nothing is written.
    package func callAsFunction(name: String, box: GeoBox, placesOfWorship: Bool) async throws {
        if let problem = ImportAreaBox.problem(box, maxDegrees: maxDegrees) { throw PlacesRefusal.importAreaBox(problem: problem) }
        try await areas.upsert(name: name, box: box, placesOfWorship: placesOfWorship, runNow: true)
    }
}
