/// What a telemetry event records (N1): the closed set the ingest accepts and the aggregates count. Events carry
/// it as text (`TelemetryRecorded.kind`, shared with the apps); it becomes this enum where the service decides on
/// it, so a kind the aggregates do not count is a case the compiler names, not a string that falls through.
package enum TelemetryKind: String, CaseIterable, Sendable {
    case install
    case featureUsed = "feature_used"
    case screenViewed = "screen_viewed"
    case cityViewed = "city_viewed"
}
