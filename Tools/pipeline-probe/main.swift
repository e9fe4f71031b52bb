import PlatformRuntime

await ServiceMain.run(PipelineProbe.identity) { environment, registry, logger in
    try await PipelineProbe.buildApplication(environment: environment, registry: registry, logger: logger)
}
