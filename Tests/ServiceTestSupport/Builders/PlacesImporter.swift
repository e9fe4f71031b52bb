import Hummingbird
import PlacesImporter
import PlatformPostgres

package let buildPlacesImporter: ApplicationBuilder = { try await buildApplication(environment: $0, registry: $1, logger: $2) }
/// Its migrations, for a test database made from a migrated template.
package let placesImporterMigrations: [Migration] = PlacesImporterMigrations.all
