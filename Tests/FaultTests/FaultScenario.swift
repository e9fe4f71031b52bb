import Foundation
import Logging
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import TestSupport

/// One row of the fault table: what was sent, what arrived, and how long the pipeline took to be whole again.
struct FaultOutcome: Sendable {
    var scenario: String
    var events = 0
    var appliedOnce = 0
    var lost = 0
    var doubled = 0
    var recovery: Duration = .zero
    var note = ""
    var error: String?

    var passed: Bool { error == nil && lost == 0 && doubled == 0 && appliedOnce == events }
}

/// Where a scenario's probes keep their state and find their broker.
struct ProbeSetup: Sendable {
    var postgresHost: String
    var postgresPort: Int
    var postgresUser: String
    var database: String
    var brokers: String
    /// The probe's topic (`PROBE_TOPIC`), of this scenario alone.
    var topics = ServiceTopics(["PROBE_TOPIC": "fault"])
    var group: String
    var publicKey: String

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let base = ServiceEnvironment(
            postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser, database: database, brokers: brokers,
            publicKey: publicKey)
        return base.variables(
            [
                "KAFKA_GROUP_ID": group, "PROBE_TOPIC": topic, "OUTBOX_IDLE_INTERVAL_MS": "20", "KAFKA_FETCH_WAIT_MAX_MS": "100",
                "KAFKA_MESSAGE_TIMEOUT_MS": "15000", "OUTBOX_REPUBLISH_WINDOW_SECONDS": "120", "OUTBOX_STEP_TIMEOUT_MS": "20000",
                "CONSUMER_STEP_TIMEOUT_MS": "5000", "LOG_LEVEL": ProcessInfo.processInfo.environment["FAULT_LOG_LEVEL"] ?? "warning",
                "LOG_FORMAT": "text",
                // FAULT_KAFKA_DEBUG=cgrp,topic (say) passes librdkafka's debug contexts on to the probes.
                "KAFKA_DEBUG": ProcessInfo.processInfo.environment["FAULT_KAFKA_DEBUG"] ?? "",
            ].merging(extra) { $1 })
    }

    var topic: String { topics["PROBE_TOPIC"] }

    var postgres: PostgresConfiguration {
        PostgresConfiguration(
            host: postgresHost, port: postgresPort, username: postgresUser, password: nil, database: database,
            schema: "pipeline_probe", maxConnections: 2)
    }
}

/// Counts what the probes applied: each sequence number once is right; missing ones are lost, and a row
/// applied more than once is doubled.
struct EffectCounter: Sendable {
    let client: PostgresClient
    let logger = Logger(label: "fault-suite")

    func applied() async throws -> Int {
        (try? await scalar("SELECT count(*)::bigint FROM effects")) ?? 0
    }

    func tally(expected: Int) async throws -> (appliedOnce: Int, lost: Int, doubled: Int) {
        let once = try await scalar("SELECT count(*)::bigint FROM effects WHERE applications = 1 AND sequence < \(expected)")
        let present = try await scalar("SELECT count(*)::bigint FROM effects WHERE sequence < \(expected)")
        let doubled = try await scalar("SELECT count(*)::bigint FROM effects WHERE applications > 1")
        return (once, expected - present, doubled)
    }

    private func scalar(_ query: PostgresQuery) async throws -> Int {
        for try await value in try await client.query(query, logger: logger).decode(Int64.self) { return Int(value) }
        return 0
    }
}

/// Waits until the probes applied `count` events, or fails after `timeout`.
func waitApplied(_ count: Int, counter: EffectCounter, timeout: Duration, context: @autoclosure () -> String) async throws {
    let done = try await eventually(timeout: timeout, interval: .milliseconds(100)) { try await counter.applied() >= count }
    guard done else { throw ProbeError("only \(try await counter.applied()) of \(count) events were applied: \(context())") }
}

/// The fault table as the suite prints it.
func render(_ outcomes: [FaultOutcome]) -> String {
    let header = ["scenario", "events", "applied once", "lost", "doubled", "time to recover", "result"]
    let rows = outcomes.map { outcome in
        [
            outcome.scenario, "\(outcome.events)", "\(outcome.appliedOnce)", "\(outcome.lost)", "\(outcome.doubled)",
            String(format: "%.1f s", outcome.recovery.seconds),
            outcome.error.map { "FAILED: \($0.prefix(300))" } ?? (outcome.passed ? "ok" : "FAILED")
                + (outcome.note.isEmpty ? "" : " (\(outcome.note))"),
        ]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
        "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
    }
    return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
}
