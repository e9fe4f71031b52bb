import ArgumentParser
import Foundation
import PlatformDeploy
import PlatformEvents

struct CheckServices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-services",
        abstract: "Check that every file listing the services agrees with the registry (ServiceIdentity.all).",
        discussion: """
            Prints each file that misses a service, or its port, schema or extensions, and exits 1. Adding a service \
            to the registry first makes this list every file to update.
            """)

    @Option(help: "The repository's root.") var root = "."

    func run() throws {
        let check = ServiceRegistryCheck(root: URL(fileURLWithPath: root))
        let problems = check.problems()
        guard problems.isEmpty else {
            for problem in problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
            throw ExitCode(1)
        }
        print("\(check.services.count) services, \(check.fileCount) files: every file agrees with the registry")
    }
}
