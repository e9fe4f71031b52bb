import PlacesImporter
import PlatformEvents
import PlatformRuntime

await ServiceMain.run(.placesImporter) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
