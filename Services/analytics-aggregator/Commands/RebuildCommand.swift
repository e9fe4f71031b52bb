import Foundation
import Logging
import PlatformCore

/// `analytics-aggregator rebuild` rebuilds the aggregates from the topics (N6); without arguments the process
/// is the service.
package enum RebuildCommand {
    /// Runs the rebuild and exits when the command line asks for it; returns otherwise.
    package static func runIfAsked() async {
        guard CommandLine.arguments.dropFirst().first == "rebuild" else { return }
        let options: RebuildOptions
        do {
            options = try RebuildOptions(arguments: Array(CommandLine.arguments.dropFirst(2)))
        } catch {
            FileHandle.standardError.write(Data("analytics-aggregator rebuild: \(error)\n\(RebuildOptions.usage)\n".utf8))
            exit(2)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        do {
            try await Rebuild(
                environment: EnvironmentReader(), logger: Logger(label: "analytics-aggregator-rebuild"),
                allowShorterLog: options.allowShorterLog
            ) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }.run()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("analytics-aggregator rebuild: \(error)\n".utf8))
            exit(1)
        }
    }
}
