import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PlatformRuntime
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// `analytics-aggregator rebuild` (N6): every aggregate again from the beginning of the telemetry topic, into a fresh
/// generation, switched to when caught up. The live service keeps answering from the current generation
/// and writes the new one too, so nothing that arrives during the rebuild is missed; each generation
/// applies an event once (`applied_events`), so nothing the two both see counts twice.
///
/// Caught up: every partition assigned, each one's high watermark known and reached, and the consumer's last
/// two polls empty (an empty poll counts only once everything polled before it is applied). Everything
/// on the topics when the rebuild began is below those watermarks; whatever comes later, the live consumer
/// writes into the new generation too. Then the rebuild's consumer stops and the new generation becomes
/// current, waiting for the live batches writing either. One rebuild at a time: it holds an advisory lock for
/// its whole run (a killed rebuild's lock goes with its connection).
///
/// Before switching it compares what it read with what the live generation applied (`LogReadComparison`): a log
/// that lost events since (a broker restart that emptied a memory log, retention) would make the new numbers
/// smaller, so it refuses, says why and drops its generation, unless `allowShorterLog` says to switch anyway.
struct Rebuild {
    let environment: EnvironmentReader
    let logger: Logger
    /// Switch even when the rebuild read less of the log than the live generation applied (the operator knows
    /// the log lost events and accepts the smaller numbers).
    var allowShorterLog = false
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
            do {
                try await Generations.withRebuildLock(on: runtime.postgres, logger: logger) {
                    try await rebuild(runtime: runtime, configuration: configuration)
                }
            } catch is Generations.RebuildLockHeld {
                throw RebuildError("another rebuild is running (it holds the rebuild lock); let it finish first")
            }
        }
    }

    private func rebuild(runtime: PlatformRuntime, configuration: AnalyticsConfiguration) async throws {
        let started = ContinuousClock.now
        let previous = try await Generations.current(on: runtime.postgres, logger: logger)
        if try await !Generations.readsComplete(previous, on: runtime.postgres, logger: logger) {
            let reason = """
                generation \(previous) counted events before its reads of the log were tallied (migration 0005), so a rebuild \
                cannot tell whether the log still holds everything it counted
                """
            guard allowShorterLog else {
                throw RebuildError(
                    "not rebuilding: \(reason). Compare the topics' contents with its numbers, then run "
                        + "`analytics-aggregator rebuild --allow-shorter-log`; the generation it builds is compared from then on.")
            }
            print("rebuild: \(reason); going on (--allow-shorter-log)")
        }
        let generation = try await Generations.startBuilding(on: runtime.postgres, logger: logger)
        print("rebuild: generation \(generation) started (queries keep reading generation \(previous) until it is caught up)")
        let progress = RebuildProgress(
            inner: AnalyticsTopics.handlers(
                configuration, target: generation, lifecycle: runtime.accountLifecycle(AnalyticsAccountsOwner(erased: runtime.erasedAccounts)),
                erased: runtime.erasedAccounts))
        let consumer = try runtime.makeConsumer(
            topics: AnalyticsTopics.rebuilt(configuration), handler: progress,
            groupId: "\(ServiceIdentity.analyticsAggregator.name)-rebuild-\(generation)-\(UUID().uuidString.prefix(8).lowercased())",
            ledger: .handler)
        runtime.startGate.open()
        let services = ServiceGroup(
            configuration: .init(services: [.init(service: runtime.producer), .init(service: consumer)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            while true {
                try await Task.sleep(for: .milliseconds(500))
                let lags = consumer.lagByPartition()
                let assigned = consumer.assignedPartitionCount
                let behind = lags.reduce(0) { $0 + $1.lag }
                let caughtUp = assigned > 0 && lags.count == assigned && behind == 0 && consumer.consecutiveEmptyPolls >= 2
                print(
                    "rebuild: generation \(generation): \(progress.eventsApplied) events applied, \(behind) behind on \(lags.count)/\(assigned) partitions"
                        + (caughtUp ? ", caught up" : ""))
                if caughtUp { break }
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        try await checkReads(of: generation, against: previous, on: runtime.postgres)
        try await Generations.switchTo(generation, on: runtime.postgres, logger: logger)
        let seconds = (ContinuousClock.now - started).components.seconds
        print("rebuild: switched to generation \(generation) (generation \(previous) dropped): \(progress.eventsApplied) events in \(seconds) s")
    }

    /// Refuses (and drops `generation`) when it read less of the log than `live` applied, unless told otherwise.
    private func checkReads(of generation: Int, against live: Int, on postgres: PostgresClient) async throws {
        let shortfalls = try await GenerationReads.compare(live: live, rebuilt: generation, on: postgres, logger: logger).shortfalls
        guard !shortfalls.isEmpty else { return }
        let reasons = shortfalls.map { "  - \($0)" }.joined(separator: "\n")
        if allowShorterLog {
            print("rebuild: the log is shorter than what generation \(live) applied; switching anyway (--allow-shorter-log):\n\(reasons)")
            return
        }
        try await Generations.abandon(generation, on: postgres, logger: logger)
        throw RebuildError(
            """
            not switching to generation \(generation): it read less of the log than generation \(live) applied, so its \
            numbers would be smaller:
            \(reasons)
            Generation \(live) stays current; generation \(generation) was dropped. If the log lost those events for good \
            and the smaller numbers are what you want, run `analytics-aggregator rebuild --allow-shorter-log`.
            """)
    }
}
