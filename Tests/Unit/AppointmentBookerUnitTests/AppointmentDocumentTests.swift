import Testing

@testable import AppointmentBooker

/// appointment-booker's document against its domain (X3): the closed sets the generated types carry are the
/// service's own.
@Suite("appointment-booker: document and domain")
struct AppointmentDocumentTests {
    @Test("X3: the document's closed sets are the domain's")
    func closedSets() {
        #expect(
            Set(Components.Schemas.AvailabilityException.KindPayload.allCases.map(\.rawValue))
                == Set(Availability.Exception.Kind.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Booking.CancelledByPayload.allCases.map(\.rawValue)) == Set(["user", "partner", "admin", "system"]))
    }
}
