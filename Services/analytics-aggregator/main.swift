import Shared

await ServiceMain.run(.analyticsAggregator) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
