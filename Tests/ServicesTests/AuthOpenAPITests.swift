import Foundation
import Testing
import TestSupport

@Suite("auth: the served OpenAPI document")
struct AuthOpenAPITests {
    @Test("X3: /openapi.yaml is a valid OpenAPI document and every operation in it exists in the router")
    func test_X3_openAPIDocumentMatchesRoutes() async throws {
        try await AuthTestHarness.run { auth in
            let document = try await auth.client.execute(uri: "/openapi.yaml", method: .get) { String(buffer: $0.body) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("auth-openapi-\(uniqueSuffix()).yaml")
            try document.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let python = try #require(ProcessInfo.processInfo.environment["TEST_PYTHON"], "run the tests with scripts/test.sh")
            let validator = Process()
            validator.executableURL = URL(fileURLWithPath: python)
            validator.arguments = ["-m", "openapi_spec_validator", file.path]
            let output = Pipe()
            validator.standardOutput = output
            validator.standardError = output
            try validator.run()
            let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            validator.waitUntilExit()
            #expect(validator.terminationStatus == 0, "\(report)")

            let operations = Self.operations(in: document)
            #expect(operations.count >= 19)
            for (path, method) in operations {
                let uri = path.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                let (status, body) = try await auth.request(.init(rawValue: method.uppercased())!, uri, body: Data("{}".utf8))
                #expect(status != .methodNotAllowed && body["error.message"] != "no such route", "\(method.uppercased()) \(path) is documented but not routed")
            }
        }
    }

    /// (path, method) pairs, read from the document's two-space-indented path keys and their method keys.
    static func operations(in yaml: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var inPaths = false
        var currentPath: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                ["get:", "post:", "patch:", "put:", "delete:"].contains(line.trimmingCharacters(in: .whitespaces))
            {
                result.append((path, String(line.trimmingCharacters(in: .whitespaces).dropLast())))
            }
        }
        return result
    }
}
