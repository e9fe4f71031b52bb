import AnalyticsAggregator
import PlatformEvents
import PlatformRuntime

await RebuildCommand.runIfAsked()
await ServiceMain.run(.analyticsAggregator) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
