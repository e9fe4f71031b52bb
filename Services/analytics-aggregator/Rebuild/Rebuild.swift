import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Shared

/// `analytics-aggregator rebuild` (N6): every aggregate again from the beginning of the topics, into a fresh
/// generation, switched to when caught up. The live service keeps answering from the current generation
/// and writes the new one too, so nothing that arrives during the rebuild is missed; each generation
/// applies an event once (`applied_events`), so nothing the two both see counts twice.
///
/// Caught up: every partition assigned, each one's high watermark known and reached, no batch in hand, twice
/// in a row half a second apart. Then the rebuild's consumer stops (finishing the batch in hand) and the new
/// generation becomes current in one transaction, which waits for the live batches writing either.
struct Rebuild {
    let environment: EnvironmentReader
    let logger: Logger
    /// Progress lines for the operator.
    let print: @Sendable (String) -> Void

    func run() async throws {
        let runtime = try await PlatformRuntime(
            identity: .analyticsAggregator, environment: environment, migrations: AnalyticsAggregatorMigrations.all,
            registry: PrometheusCollectorRegistry(), logger: logger)
        let configuration = try AnalyticsConfiguration(environment: environment)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await runtime.postgres.run() }
            defer { group.cancelAll() }
            try await MigrationRunner(schema: runtime.configuration.postgres.schema, serviceMigrations: AnalyticsAggregatorMigrations.all)
                .run(on: runtime.postgres, logger: logger)
            try await rebuild(runtime: runtime, configuration: configuration)
        }
    }

    private func rebuild(runtime: PlatformRuntime, configuration: AnalyticsConfiguration) async throws {
        let started = ContinuousClock.now
        let previous = try await Generations.current(on: runtime.postgres, logger: logger)
        let generation = try await Generations.startBuilding(on: runtime.postgres, logger: logger)
        print("rebuild: generation \(generation) started (queries keep reading generation \(previous) until it is caught up)")
        let progress = RebuildProgress(
            inner: AggregateHandler(writer: AggregateWriter(exactUsersLimit: configuration.exactUsersLimit), target: generation))
        let consumer = try runtime.makeConsumer(
            topics: AnalyticsTopics.consumed(configuration), handler: progress,
            groupId: "\(ServiceIdentity.analyticsAggregator.name)-rebuild-\(generation)-\(UUID().uuidString.prefix(8).lowercased())",
            ledger: .handler)
        runtime.startGate.open()
        let services = ServiceGroup(
            configuration: .init(services: [.init(service: runtime.producer), .init(service: consumer)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var caughtUpChecks = 0
            while caughtUpChecks < 2 {
                try await Task.sleep(for: .milliseconds(500))
                let lags = consumer.lagByPartition()
                let assigned = consumer.assignedPartitionCount
                let behind = lags.reduce(0) { $0 + $1.lag }
                let ready = assigned > 0 && lags.count == assigned && behind == 0 && progress.isIdle
                caughtUpChecks = ready ? caughtUpChecks + 1 : 0
                print(
                    "rebuild: generation \(generation): \(progress.eventsApplied) events applied, \(behind) behind on \(lags.count)/\(assigned) partitions"
                        + (ready ? " (caught up?)" : ""))
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        try await Generations.switchTo(generation, on: runtime.postgres, logger: logger)
        let seconds = (ContinuousClock.now - started).components.seconds
        print("rebuild: switched to generation \(generation) (generation \(previous) dropped): \(progress.eventsApplied) events in \(seconds) s")
    }
}
