import Testing

@testable import WarningDetector

/// warning-detector's document against its domain (X3): the closed sets the generated types carry are the
/// service's own.
@Suite("warning-detector: document and domain")
struct WarningDocumentTests {
    @Test("X3: warning kinds and severities in the document are the rules' own")
    func closedSetsMatchTheDomain() {
        #expect(Set(Components.Schemas.Warning.KindPayload.allCases.map(\.rawValue)) == Set(WarningRule.Kind.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Warning.SeverityPayload.allCases.map(\.rawValue)) == Set(Severity.allCases.map(\.capName)))
    }
}
