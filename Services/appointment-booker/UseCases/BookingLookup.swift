import Foundation

/// Reading one booking by id: `BookingStore` in Postgres, a memory one in the unit tests.
package protocol BookingLookup: Sendable {
    func find(_ id: UUID) async throws -> Booking?
}
