import Hummingbird
@testable import PlacesImporter

let buildPlacesImporter: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
