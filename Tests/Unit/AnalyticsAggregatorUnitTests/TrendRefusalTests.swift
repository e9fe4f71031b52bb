import Testing

@testable import AnalyticsAggregator

/// The trends' per-app rule (N5): downloads and feature uses can be narrowed to an app, city views cannot; the
/// refusal is a domain error that becomes the 422 the dashboard knows.
@Suite("analytics-aggregator: trend refusals")
struct TrendRefusalTests {
    @Test("N5: only city views refuse an app; no app is always fine")
    func perAppRule() throws {
        try TrendMeasure.downloads.check(app: "weather")
        try TrendMeasure.featureUses.check(app: "places")
        for measure in TrendMeasure.allCases { try measure.check(app: nil) }
        #expect(throws: TrendRefusal.notPerApp(.cityViews)) { try TrendMeasure.cityViews.check(app: "weather") }
    }

    @Test("N5: not per app is 422 not_per_app, naming the measure and the field")
    func answer() {
        let answer = TrendErrors.answer(for: .notPerApp(.cityViews))
        #expect(answer.status == .unprocessableContent && answer.code == "not_per_app")
        #expect(answer.message == "cityViews are not counted per app" && answer.details == ["app": "not for this metric"])
    }

    @Test("N5: the measures are the document's metrics")
    func measuresAreTheDocuments() {
        #expect(Set(Components.Schemas.TrendMetric.allCases.map(\.rawValue)) == Set(TrendMeasure.allCases.map(\.rawValue)))
    }
}
