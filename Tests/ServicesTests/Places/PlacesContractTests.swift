import Foundation
import PlatformHTTP
import TestSupport
import Testing

@testable import PlacesImporter

/// places-importer against its own document (X3): fuzzed by Schemathesis with a
/// user's and an admin's token, every check on.
@Suite("places-importer: API contract", .serialized)
struct PlacesContractTests {
    @Test("X3: Schemathesis finds no failure with a user's and an admin's token", arguments: [UserRole.user, .admin])
    func test_X3_fuzzed(role: UserRole) async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_ON_DEMAND": "true"]) { places in
            try await places.importArea()
            let token = try await places.token("fuzz-\(role.rawValue)", role: role)
            let outcome = try await Schemathesis.run(baseURL: "http://127.0.0.1:\(places.client.port ?? 0)", bearer: token)
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
