import Foundation
import PlatformEvents
import Testing

@testable import AnalyticsAggregator

/// Telemetry kinds as a closed set (N1, N2): the ingest accepts exactly these, publishes them as the apps spell
/// them, and the aggregates count each as its kind says.
@Suite("analytics-aggregator: telemetry kinds")
struct TelemetryKindTests {
    @Test("N1: the kinds are the four the document names, spelt as on the wire")
    func wireNames() {
        #expect(TelemetryKind.allCases.map(\.rawValue) == ["install", "feature_used", "screen_viewed", "city_viewed"])
        #expect(TelemetryKind(rawValue: "featureUsed") == nil)
    }

    @Test("N1: each kind passes the rules with its own field and is published with its wire name")
    func rulesKeepTheKind() throws {
        let rules = TelemetryRules(maxAge: 86_400, maxSkew: 300)
        let fields: [TelemetryKind: [String: Any]] = [
            .install: ["platform": "android", "appVersion": "2.0"], .featureUsed: ["feature": "share"],
            .screenViewed: ["screen": "home"], .cityViewed: ["cityId": 42],
        ]
        for kind in TelemetryKind.allCases {
            let input = try TelemetryIngestTests.input((fields[kind] ?? [:]).merging(["kind": kind.rawValue]) { $1 })
            guard case .success(let (event, _)) = rules.check(input, app: .weather, now: TelemetryIngestTests.now) else {
                Issue.record("\(kind) was refused")
                continue
            }
            #expect(event.kind == kind)
        }
    }

    @Test("N2: installs, feature uses and city views are counted; screen views are not")
    func aggregatesByKind() {
        func event(_ kind: TelemetryKind) -> AggregateDelta.Counted {
            .telemetry(
                TelemetryRecorded(
                    app: .weather, clientEventId: UUID(), kind: kind, deviceId: "d", platform: .ios, feature: "search", screen: "home",
                    cityId: 7),
                day: "2026-11-28")
        }
        let delta = AggregateDelta(folding: TelemetryKind.allCases.map(event))
        #expect(delta.downloads == [AggregateDelta.DownloadKey(day: "2026-11-28", app: "weather", platform: "ios"): 1])
        #expect(delta.featureUses == [AggregateDelta.FeatureKey(app: "weather", feature: "search"): 1])
        #expect(delta.cities[7]?.views == 1)
        #expect(AggregateDelta(folding: [event(.screenViewed)]).isEmpty)
    }
}
