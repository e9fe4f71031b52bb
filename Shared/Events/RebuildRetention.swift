import Foundation

/// The topic analytics-aggregator rebuilds its aggregates from (N6) must keep every event: a rebuild recounts
/// only what the log still holds, and refuses to switch when that is less than the live numbers. Topic creation
/// keeps it for good; `platformctl check-retention` reports it when a broker would trim it. It names accounts only
/// by pseudonyms that go with the accounts (U9). analytics' other topics (`auth.users`, `weather.user-cities`) give
/// it facts that are not per generation, so a rebuild does not read them and they are not kept (decision 0011).
public enum RebuildRetention {
    /// The topics the aggregates are built from.
    public static var topics: [Topic] { [TopicCatalogue.telemetry] }

    /// The configuration that keeps a topic's events for good.
    public static let keepForever = ["retention.ms": "-1", "retention.bytes": "-1"]

    /// What one topic's configuration, as the broker described it, means for a rebuild.
    public enum Verdict: Equatable, Sendable {
        case keepsEverything
        /// A rebuild after the broker trims the topic comes out short (and is refused); the reason says how.
        case trims(String)
        /// The broker did not describe the topic's configuration.
        case unknown
    }

    public static func verdict(configs: [String: String]?) -> Verdict {
        guard let configs, !configs.isEmpty else { return .unknown }
        let policy = Set((configs["cleanup.policy"] ?? "delete").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        var reasons: [String] = []
        if policy.contains("compact") {
            reasons.append("cleanup.policy=\(configs["cleanup.policy"] ?? "") keeps one event per key")
        }
        if policy.contains("delete") {
            if let milliseconds = configs["retention.ms"].flatMap(Int64.init), milliseconds >= 0 {
                reasons.append("retention.ms=\(milliseconds) deletes events after \(describe(milliseconds: milliseconds))")
            }
            if let bytes = configs["retention.bytes"].flatMap(Int64.init), bytes >= 0 {
                reasons.append("retention.bytes=\(bytes) deletes the oldest events past that size")
            }
        }
        return reasons.isEmpty ? .keepsEverything : .trims(reasons.joined(separator: "; "))
    }

    private static func describe(milliseconds: Int64) -> String {
        let days = milliseconds / 86_400_000
        return days >= 1 ? "\(days) day(s)" : "\(milliseconds / 1_000) s"
    }
}

/// A topic that names accounts by id keeps events for its catalogue days at most (`Topic.retentionDays`), so that a
/// deleted account's id leaves it (U9).
public enum RetentionBound {
    public enum Verdict: Equatable, Sendable {
        case withinBound
        /// The reason says how it keeps longer.
        case keepsLonger(String)
        /// The broker did not describe the topic's configuration.
        case unknown
    }

    public static func verdict(configs: [String: String]?, days: Int) -> Verdict {
        guard let configs, !configs.isEmpty else { return .unknown }
        let bound = Int64(days) * 86_400_000
        guard let milliseconds = configs["retention.ms"].flatMap(Int64.init) else { return .keepsLonger("retention.ms is not set") }
        if milliseconds < 0 { return .keepsLonger("retention.ms=\(milliseconds) keeps events for good") }
        if milliseconds > bound { return .keepsLonger("retention.ms=\(milliseconds) is more than \(days) days") }
        return .withinBound
    }
}
