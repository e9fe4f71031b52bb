import Shared

await ServiceMain.run(.auth) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
