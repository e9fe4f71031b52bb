import Foundation
import PlatformEvents
import Testing
import UnitTestSupport

@testable import PlatformDeploy

/// One registry of the services (`ServiceIdentity.all`): the files that run, deploy, watch or document the
/// services are held to it, so a service is added in one place and the check names every file to update.
@Suite("The registry of the services")
struct ServiceRegistryTests {
    @Test("every file that lists the services agrees with the registry: names, ports, schemas, extensions")
    func filesAgree() {
        #expect(ServiceRegistryCheck(root: RepositoryFiles.root).problems() == [])
    }

    @Test("a seventh service in the registry alone makes the check list every file to update")
    func seventhService() throws {
        let seventh = ServiceIdentity(
            name: "loyalty-points", schema: "loyalty_points", defaultPort: 8087, extensions: ["hstore"], requiredSettings: ["LOYALTY_KEY"])
        let problems = ServiceRegistryCheck(root: RepositoryFiles.root, services: ServiceIdentity.all + [seventh]).problems()
        let files = Set(problems.map { String($0.prefix { $0 != ":" }) })
        #expect(files == Set(ServiceRegistryCheck.rules(for: seventh).map(\.file) + [DatabaseBootstrap.path, "deploy/kafka/kafka-users.yaml"]))
        #expect(files.count >= 18)
        #expect(problems.contains("\(DatabaseBootstrap.path): stale (run `platformctl render-services`)"))
        #expect(problems.contains { $0.hasPrefix("Services/loyalty-points/openapi.yaml: missing") })
    }

    @Test("the rendered bootstrap gives each service its role, schema, extensions and password variable")
    func bootstrap() {
        let sql = DatabaseBootstrap.sql(for: [.placesImporter])
        #expect(sql.contains("CREATE SCHEMA IF NOT EXISTS places_importer AUTHORIZATION places_importer;"))
        #expect(sql.contains("CREATE EXTENSION IF NOT EXISTS postgis SCHEMA places_importer;"))
        #expect(sql.contains("\\getenv password PLACES_IMPORTER_DB_PASSWORD"))
        #expect(!sql.contains("weather_fetcher"))
    }

    @Test("a service's topics come from the catalogue: weather-fetcher writes forecasts and reads warnings")
    func topics() {
        #expect(ServiceIdentity.weatherFetcher.produces.contains { $0.name == TopicCatalogue.forecasts.name })
        #expect(ServiceIdentity.weatherFetcher.consumes.contains { $0.name == TopicCatalogue.warnings.name })
        #expect(ServiceIdentity.all.allSatisfy { !$0.produces.isEmpty })
    }

    @Test("X4: a service that scales beyond the partitions of a topic it consumes is told; the registry's services do not")
    func replicasWithinPartitions() {
        // auth as shipped before: 6 replicas over the 3 partitions of the partner applications.
        let wide = ServiceIdentity(name: "auth", schema: "auth", defaultPort: 8084, requiredSettings: ["AUTH_SIGNING_KEY"], maxReplicas: 6)
        let told = ServiceRegistryCheck.replicaProblems(for: wide)
        #expect(told.count == 1)
        #expect(told.first?.contains("6 replicas, more than the 3 partitions of appointments.partner-applications") == true, "\(told)")
        #expect(ServiceRegistryCheck(root: RepositoryFiles.root, services: [wide]).problems().contains { told.contains($0) })
        #expect(ServiceRegistryCheck.replicaProblems(for: ServiceIdentity(name: "auth", schema: "auth", defaultPort: 8084, maxReplicas: 3)).isEmpty)
        #expect(ServiceIdentity.all.flatMap(ServiceRegistryCheck.replicaProblems).isEmpty)
        for service in ServiceIdentity.all {
            #expect(service.consumes.allSatisfy { $0.partitions >= service.maxReplicas }, "\(service.name)")
        }
    }

    @Test("a name counts only on its own: auth is not in authorization, nor weather in weather-fetcher")
    func mentions() {
        #expect(ServiceRegistryCheck.mentions("auth", in: "values: [weather-fetcher, auth, places-importer]"))
        #expect(!ServiceRegistryCheck.mentions("auth", in: "Authorization: auth-token authorization"))
        #expect(!ServiceRegistryCheck.mentions("weather", in: "weather-fetcher"))
        #expect(ServiceRegistryCheck.stackStarts("auth", port: 8084, in: "SERVICES=(a auth)\nPORTS=${STACK_SERVICE_PORTS:-1,8084}"))
        #expect(!ServiceRegistryCheck.stackStarts("auth", port: 8084, in: "SERVICES=(auth a)\nPORTS=${STACK_SERVICE_PORTS:-1,8084}"))
    }
}
