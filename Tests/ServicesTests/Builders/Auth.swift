import Hummingbird
@testable import Auth

let buildAuth: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
