import Hummingbird
@testable import AppointmentBooker

let buildAppointmentBooker: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
