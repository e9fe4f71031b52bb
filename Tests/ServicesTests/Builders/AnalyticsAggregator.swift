import Hummingbird
@testable import AnalyticsAggregator

let buildAnalyticsAggregator: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
