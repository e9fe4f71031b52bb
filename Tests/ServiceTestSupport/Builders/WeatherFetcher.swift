import Hummingbird
import PlatformPostgres
import WeatherFetcher

package let buildWeatherFetcher: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
/// Its migrations, for a test database made from a migrated template.
package let weatherFetcherMigrations: [Migration] = WeatherFetcherMigrations.all
