import Shared

await ServiceMain.run(.weatherFetcher) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
