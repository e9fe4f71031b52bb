import Shared

await ServiceMain.run(.appointmentBooker) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
