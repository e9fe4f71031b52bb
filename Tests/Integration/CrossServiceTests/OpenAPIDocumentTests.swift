import Foundation
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

/// The served documents' path table (what `MethodNotAllowedMiddleware` answers 405 from) is read by a small
/// line parser; here it is compared with a YAML parser's reading of every contract-first document (X3).
@Suite("Platform: the API documents' path table")
struct OpenAPIDocumentTests {
    static let services = RepositoryFiles.services

    @Test("X3: every document's paths and methods, as the line parser reads them, are what PyYAML reads")
    func pathTableMatchesYAML() throws {
        let python = try #require(ProcessInfo.processInfo.environment["TEST_PYTHON"], "run the tests with scripts/test.sh")
        let documents = try FileManager.default.contentsOfDirectory(atPath: Self.services.path)
            .map { Self.services.appendingPathComponent($0).appendingPathComponent("openapi.yaml") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        #expect(documents.count >= 2)
        for document in documents {
            let parsed = OpenAPIDocument(bytes: Array(try Data(contentsOf: document))).operations
                .flatMap { operation in operation.methods.map { "\($0.rawValue) \(operation.template)" } }.sorted()
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [
                "-c",
                """
                import sys, yaml
                methods = {"get", "put", "post", "delete", "patch", "head", "options"}
                paths = yaml.safe_load(open(sys.argv[1]))["paths"]
                print("\\n".join(sorted(f"{m.upper()} {p}" for p, item in paths.items() for m in item if m in methods)))
                """,
                document.path,
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let expected = output.split(separator: "\n").map(String.init).sorted()
            #expect(!expected.isEmpty && parsed == expected, "\(document.path)")
        }
    }
}
