import Foundation
import Testing
import TestSupport

@Suite("auth: the served OpenAPI document")
struct AuthOpenAPITests {
    @Test("X3: /openapi.yaml is a valid OpenAPI document and every operation in it exists in the router")
    func test_X3_openAPIDocumentMatchesRoutes() async throws {
        try await AuthTestHarness.run { auth in
            let document = try await auth.client.execute(uri: "/openapi.yaml", method: .get) { String(buffer: $0.body) }
            let report = try LegacyOpenAPIDocument.validationReport(document)
            #expect(report == nil, "\(report ?? "")")
            let operations = LegacyOpenAPIDocument.operations(in: document)
            #expect(operations.count >= 19)
            for (path, method) in operations {
                let uri = path.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                let (status, body) = try await auth.request(.init(rawValue: method.uppercased())!, uri, body: Data("{}".utf8))
                #expect(status != .methodNotAllowed && body["error.message"] != "no such route", "\(method.uppercased()) \(path) is documented but not routed")
                #expect(status != .internalServerError, "\(method.uppercased()) \(path) answered \(status)")
            }
        }
    }
}
