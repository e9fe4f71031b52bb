import Auth
import Shared

await ServiceMain.run(.auth) { try await buildApplication(environment: $0, registry: $1, logger: $2) }
