import Foundation
import Logging
import Shared

// `analytics-aggregator rebuild` rebuilds the aggregates from the topics (N6); without arguments it is the service.
if CommandLine.arguments.dropFirst().first == "rebuild" {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .warning
        return handler
    }
    do {
        try await Rebuild(environment: EnvironmentReader(), logger: Logger(label: "analytics-aggregator-rebuild")) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }.run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("analytics-aggregator rebuild: \(error)\n".utf8))
        exit(1)
    }
}

await ServiceMain.run(.analyticsAggregator) { environment, registry, logger in
    try await buildApplication(environment: environment, registry: registry, logger: logger)
}
