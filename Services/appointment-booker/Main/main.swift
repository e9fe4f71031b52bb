import AppointmentBooker
import PlatformEvents
import PlatformRuntime

await ServiceMain.run(.appointmentBooker) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
