import Foundation

// Runs swift-openapi-generator for a contract module and rewrites its `public import` lines as plain imports (see
// PublicContractGenerator): in Swift 6 a plain import is public, and unlike an access-level one it is not reported
// when a file does not use it publicly. The `#if compiler(>=6.4) @diagnose(UnusedImportAccess…) #endif` guards
// above them go too.
// Usage: contract-import-access GENERATOR DOCUMENT CONFIG OUTPUT_DIR FILE...

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("contract-import-access: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 5 else { fail("usage: contract-import-access GENERATOR DOCUMENT CONFIG OUTPUT_DIR FILE...", code: 64) }
let (generator, document, config, output) = (arguments[0], arguments[1], arguments[2], URL(fileURLWithPath: arguments[3]))
let files = arguments.dropFirst(4)

/// The generator's files with plain imports.
func plainImports(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var result: [Substring] = []
    var index = 0
    while index < lines.count {
        let line = lines[index]
        // A guard is three lines right above an import; drop exactly those.
        if line == "#if compiler(>=6.4)", index + 3 < lines.count, lines[index + 1].hasPrefix("@diagnose(UnusedImportAccess"),
            lines[index + 2] == "#endif", lines[index + 3].contains("import ")
        {
            index += 3
            continue
        }
        if line.hasPrefix("public import ") {
            result.append(line.dropFirst("public ".count))
        } else if line.hasPrefix("@_spi(Generated) public import ") {
            result.append("@_spi(Generated) " + line.dropFirst("@_spi(Generated) public ".count))
        } else {
            result.append(line)
        }
        index += 1
    }
    return result.joined(separator: "\n")
}

let scratch = FileManager.default.temporaryDirectory.appending(component: "contract-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }
do {
    let run = Process()
    run.executableURL = URL(fileURLWithPath: generator)
    run.arguments = [
        "generate", document, "--config", config, "--output-directory", scratch.path(percentEncoded: false), "--plugin-source", "build",
    ]
    // The generator reports its configuration on every run; only a failure's report is worth a build log's lines.
    let report = Pipe()
    run.standardOutput = FileHandle.nullDevice
    run.standardError = report
    try run.run()
    let said = report.fileHandleForReading.readDataToEndOfFile()
    run.waitUntilExit()
    guard run.terminationStatus == 0 else {
        fail("swift-openapi-generator exited with \(run.terminationStatus) for \(document):\n\(String(decoding: said, as: UTF8.self))")
    }
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    for name in files {
        let text = try String(contentsOf: scratch.appending(component: name), encoding: .utf8)
        try Data(plainImports(text).utf8).write(to: output.appending(component: name), options: .atomic)
    }
} catch {
    fail("\(error)")
}
