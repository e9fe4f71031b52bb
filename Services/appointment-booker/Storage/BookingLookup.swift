import Foundation

/// Reading one booking by id: `BookingStore` in Postgres, a memory one in the unit tests.
protocol BookingLookup: Sendable {
    func find(_ id: UUID) async throws -> Booking?
}

extension BookingStore: BookingLookup {}
