import Auth
import PlatformEvents
import PlatformRuntime

await ServiceMain.run(.auth) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
