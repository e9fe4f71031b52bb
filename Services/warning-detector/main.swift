import Shared

await ServiceMain.run(.warningDetector) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
