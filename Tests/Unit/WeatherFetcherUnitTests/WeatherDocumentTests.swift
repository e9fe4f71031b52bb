import PlatformEvents
import Testing

@testable import WeatherFetcher

/// weather-fetcher's document against its domain (X3): the closed sets the generated types carry are the
/// service's own.
@Suite("weather-fetcher: document and domain")
struct WeatherDocumentTests {
    @Test("X3: every weather symbol of the domain is one of the document's")
    func conditionsInDocument() {
        for condition in WeatherCondition.allCases {
            #expect(Components.Schemas.Condition(rawValue: condition.rawValue) != nil, "\(condition)")
        }
    }
}
