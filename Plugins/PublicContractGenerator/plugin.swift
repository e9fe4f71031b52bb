import Foundation
import PackagePlugin

/// Generates a contract module's public types and client from its service's `openapi.yaml` (the document one
/// folder up, the same file the server's stubs come from), for the apps' client libraries (X6).
///
/// swift-openapi-generator's own plugin would do, but its public output imports `Foundation` and `OpenAPIRuntime`
/// as `public import` in every file, and compilers before 6.4 warn for each file that does not use them publicly
/// (hundreds of warnings). So `contract-import-access` runs the generator into a scratch folder and rewrites those
/// imports as plain ones, which Swift 6 treats as public without the check.
@main struct PublicContractGenerator: BuildToolPlugin {
    /// The files swift-openapi-generator writes when run as a build plugin, whatever its config generates.
    static let generatedFiles = [
        "Types.swift", "Types+Components.swift", "Types+Operations.swift", "Types+Components+Schemas.swift",
        "Types+Components+Parameters.swift", "Types+Components+RequestBodies.swift", "Types+Components+Responses.swift",
        "Types+Components+Headers.swift", "Client.swift", "Server.swift",
    ]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        guard let config = module.sourceFiles.first(where: { $0.url.lastPathComponent == "openapi-generator-config.yaml" }) else {
            throw ContractGeneratorError.noConfig(target: target.name)
        }
        let document = target.directoryURL.deletingLastPathComponent().appending(component: "openapi.yaml")
        let sources = context.pluginWorkDirectoryURL.appending(component: "GeneratedSources")
        let generator = try context.tool(named: "swift-openapi-generator").url
        return [
            // One command: any other Swift file a build command writes would be compiled too, the raw output included.
            .buildCommand(
                displayName: "Generating \(target.name) from \(document.lastPathComponent)",
                executable: try context.tool(named: "contract-import-access").url,
                arguments: [
                    generator.path(percentEncoded: false), document.path(percentEncoded: false),
                    config.url.path(percentEncoded: false), sources.path(percentEncoded: false),
                ] + Self.generatedFiles,
                inputFiles: [config.url, document, generator],
                outputFiles: Self.generatedFiles.map { sources.appending(component: $0) }
            )
        ]
    }
}

enum ContractGeneratorError: Error, CustomStringConvertible {
    case noConfig(target: String)

    var description: String {
        switch self {
        case .noConfig(let target): "\(target) has no openapi-generator-config.yaml"
        }
    }
}
