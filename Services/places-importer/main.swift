import Shared

await ServiceMain.run(.placesImporter) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
