import PlatformEvents
import PlatformRuntime
import WeatherFetcher

await ServiceMain.run(.weatherFetcher) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
