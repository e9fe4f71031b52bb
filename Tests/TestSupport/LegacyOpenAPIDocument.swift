import Foundation

/// Checks of a service's served OpenAPI document: valid by `openapi-spec-validator`, and the operations
/// it lists, so a test can call each one against the router.
public enum LegacyOpenAPIDocument {
    /// Runs the validator from the test virtualenv (`TEST_PYTHON`); returns nil when valid, else its report.
    public static func validationReport(_ document: String) throws -> String? {
        guard let python = ProcessInfo.processInfo.environment["TEST_PYTHON"] else {
            return "TEST_PYTHON is not set: run the tests with scripts/test.sh"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(uniqueSuffix()).yaml")
        try document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: python)
        validator.arguments = ["-m", "openapi_spec_validator", file.path]
        let output = Pipe()
        validator.standardOutput = output
        validator.standardError = output
        try validator.run()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        return validator.terminationStatus == 0 ? nil : report
    }

    /// (path, method) pairs, read from the document's two-space-indented path keys and their method keys.
    public static func operations(in yaml: String) -> [(path: String, method: String)] {
        var result: [(String, String)] = []
        var inPaths = false
        var currentPath: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = false; continue }
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
