import Hummingbird
@testable import WeatherFetcher

let buildWeatherFetcher: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
