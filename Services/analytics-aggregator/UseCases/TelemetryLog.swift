import PlatformEvents

/// Where accepted telemetry goes (N1): the telemetry topic (`KafkaTelemetryLog`), or memory in the unit tests. The
/// aggregates are built from this log, not from the request.
package protocol TelemetryLog: Sendable {
    /// Appends a batch's events in order, waiting until every one is stored; a throw means none can be counted on,
    /// and the client sends the batch again (the ids make that harmless).
    func append(_ events: [EventEnvelope<TelemetryRecorded>]) async throws
}
