import AnalyticsAggregator
import Hummingbird
import PlatformPostgres

package let buildAnalyticsAggregator: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
/// Its migrations, for a test database made from a migrated template.
package let analyticsAggregatorMigrations: [Migration] = AnalyticsAggregatorMigrations.all
