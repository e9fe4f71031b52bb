import PlatformEvents
import PlatformRuntime
import WarningDetector

await ServiceMain.run(.warningDetector) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
