import Foundation
import Logging

/// The start-up step that loads the city catalogue file (W1) when it is new or changed.
enum CatalogueImport {
    static func run(path: String, into cities: CityStore, logger: Logger) async throws {
        let started = ContinuousClock.now
        let file = try CatalogueFile(contentsOf: URL(fileURLWithPath: path))
        let imported = try await cities.importCatalogue(file)
        logger.info(
            imported ? "city catalogue imported" : "city catalogue already imported",
            metadata: ["cities": "\(file.cities.count)", "path": "\(path)", "took": "\(ContinuousClock.now - started)"])
    }
}
