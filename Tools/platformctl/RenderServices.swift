import ArgumentParser
import Foundation
import PlatformDeploy
import PlatformEvents

struct RenderServices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-services",
        abstract: "Write the files rendered from the registry of the services (ServiceIdentity.all).",
        discussion: """
            The database bootstrap (deploy/postgres/bootstrap.sql, run by the local stack and the compose deployment) and \
            the broker's access rules (deploy/kafka/kafka-users.yaml, as `kafka-acls` prints them with the default \
            namespace and cluster). `check-services` fails while a rendered file differs from what this writes.
            """)

    @Option(help: "The repository's root.") var root = "."

    func run() throws {
        let check = ServiceRegistryCheck(root: URL(fileURLWithPath: root))
        for (path, text) in check.renderedFiles() {
            let url = URL(fileURLWithPath: root).appendingPathComponent(path)
            let current = try? String(contentsOf: url, encoding: .utf8)
            guard current != text else {
                print("\(path): current")
                continue
            }
            try text.write(to: url, atomically: true, encoding: .utf8)
            print("\(path): written")
        }
    }
}
