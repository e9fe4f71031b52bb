import Foundation
import Shared
import Testing
import TestSupport

@testable import PlacesImporter

/// places-importer against its own document (X3): served byte for byte, and fuzzed by Schemathesis with a
/// user's and an admin's token, every check on.
@Suite("places-importer: API contract", .serialized)
struct PlacesContractTests {
    static let documentPath = RepositoryFiles.openAPIDocument(of: "places-importer")

    @Test("X3: /openapi.yaml is the checked-in openapi.yaml, byte for byte; a known path with another method is 405 with Allow")
    func test_X3_servedDocument() async throws {
        try await PlacesTestHarness.run { places in
            let served = try await places.client.execute(uri: "/openapi.yaml", method: .get) { Array(buffer: $0.body) }
            #expect(served == Array(try Data(contentsOf: Self.documentPath)))
            let admin = try await places.token("admin", role: .admin)
            let (status, headers) = try await places.client.execute(
                uri: "/v1/admin/import-areas", method: .delete, headers: [.authorization: "Bearer \(admin)"]
            ) { ($0.status, $0.headers) }
            #expect(status == .methodNotAllowed && headers[.allow] == "GET, POST, HEAD")
            let unknown = try await places.client.execute(uri: "/v1/nowhere", method: .get) { $0.status }
            #expect(unknown == .notFound)
        }
    }

    @Test("X3: the document's closed sets are the domain's: categories, pin colours and pins, menu options, business types")
    func test_X3_closedSetsMatchTheDomain() {
        #expect(Set(Components.Schemas.Category.allCases.map(\.rawValue)) == Set(PlaceCategory.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.PinColour.allCases.map(\.rawValue)) == Set(PinColour.allCases.map(\.rawValue)))
        #expect(
            Set(Components.Schemas.Pin.allCases.map(\.rawValue))
                == Set(PinColour.allCases.map(\.rawValue) + [PinColour.untouched, PinColour.touched]))
        #expect(Components.Schemas.Rating.MenuOptionsPayloadPayload.allCases.map(\.rawValue) == Rating.menuOptionChoices)
        #expect(Components.Schemas.Rating.BusinessTypePayload.allCases.map(\.rawValue) == Rating.businessTypeChoices)
    }

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
