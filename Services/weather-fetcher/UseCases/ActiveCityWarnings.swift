import Foundation

/// A city's warnings that have not ended, the one ending last first: `CityWarningStore` in Postgres, a memory one
/// in the unit tests.
package protocol ActiveCityWarnings: Sendable {
    func active(cityId: Int) async throws -> [ActiveCityWarning]
}
