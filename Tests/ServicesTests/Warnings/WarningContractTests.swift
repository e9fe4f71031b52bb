import Foundation
import Shared
import Testing
import TestSupport

@testable import WarningDetector

/// warning-detector against its own document (X3): served byte for byte, its closed sets the domain's, and
/// Schemathesis anonymously, with a user's and with an admin's token, every check on.
@Suite("warning-detector: API contract", .serialized)
struct WarningContractTests {
    static let documentPath = RepositoryFiles.openAPIDocument(of: "warning-detector")

    @Test("X3: /openapi.yaml is the checked-in openapi.yaml, byte for byte; a known path with another method is 405 with Allow")
    func test_X3_servedDocument() async throws {
        try await WarningTestHarness.run { harness in
            let served = try await harness.client.execute(uri: "/openapi.yaml", method: .get) { Array(buffer: $0.body) }
            #expect(served == Array(try Data(contentsOf: Self.documentPath)))
            let (status, headers) = try await harness.client.execute(uri: "/v1/news", method: .delete) { ($0.status, $0.headers) }
            #expect(status == .methodNotAllowed && headers[.allow] == "GET, HEAD")
        }
    }

    @Test("X3: warning kinds and severities in the document are the rules' own")
    func test_X3_closedSetsMatchTheDomain() {
        #expect(Set(Components.Schemas.Warning.KindPayload.allCases.map(\.rawValue)) == Set(WarningRule.Kind.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Warning.SeverityPayload.allCases.map(\.rawValue)) == Set(Severity.allCases.map(\.capName)))
    }

    @Test("X3: Schemathesis finds no failure anonymously, as a user and as an admin", arguments: [nil, UserRole.user, .admin])
    func test_X3_fuzzed(role: UserRole?) async throws {
        try await WarningTestHarness.run { harness in
            var token: String?
            if let role { token = try await harness.token("fuzz-\(role.rawValue)", role: role) }
            let outcome = try await Schemathesis.run(baseURL: "http://127.0.0.1:\(harness.client.port ?? 0)", bearer: token)
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
