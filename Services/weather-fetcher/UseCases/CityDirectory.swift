import Foundation

/// The city catalogue as the favourites see it: `CityStore` in Postgres, a memory one in the unit tests.
package protocol CityDirectory: Sendable {
    func find(id: Int) async throws -> City?
}
