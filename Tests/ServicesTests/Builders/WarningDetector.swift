import Hummingbird
@testable import WarningDetector

let buildWarningDetector: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
