import PlatformEvents
import Testing

@testable import AnalyticsAggregator

/// analytics-aggregator's document against its domain (X3): the closed sets the generated types carry are the
/// service's own.
@Suite("analytics-aggregator: document and domain")
struct AnalyticsDocumentTests {
    @Test("X3: the document's closed sets are the service's")
    func closedSets() {
        #expect(Set(Components.Schemas.App.allCases.map(\.rawValue)) == Set(TelemetryApp.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Platform.allCases.map(\.rawValue)) == Set(TelemetryPlatform.allCases.map(\.rawValue)))
        #expect(Components.Schemas.HotelService.allCases.map(\.rawValue) == HotelSurvey.services.map(\.id))
        #expect(HotelService.allCases.map(\.rawValue) == HotelSurvey.services.map(\.id), "the topics' services are the survey's")
        #expect(Set(Components.Schemas.Rating.allCases.map(\.rawValue)) == Set(SurveyRating.allCases.map(\.rawValue)))
    }
}
