import AnalyticsAggregatorCore
import Foundation

/// The batch's body: `events` must be an array (400 otherwise); its elements are read one by one.
struct TelemetryBatchInput: Decodable {
    var events: [TelemetryInput]
}
