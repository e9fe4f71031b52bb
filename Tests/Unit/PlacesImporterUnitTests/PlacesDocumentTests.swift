import PlatformEvents
import Testing

@testable import PlacesImporter

/// places-importer's document against its domain (X3): the closed sets the generated types carry are the
/// service's own.
@Suite("places-importer: document and domain")
struct PlacesDocumentTests {
    @Test("X3: the document's closed sets are the domain's: categories, pin colours and pins, menu options, business types")
    func closedSetsMatchTheDomain() {
        #expect(Set(Components.Schemas.Category.allCases.map(\.rawValue)) == Set(PlaceCategory.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.PinColour.allCases.map(\.rawValue)) == Set(PinColour.allCases.map(\.rawValue)))
        #expect(
            Set(Components.Schemas.Pin.allCases.map(\.rawValue))
                == Set(PinColour.allCases.map(\.rawValue) + [PinColour.untouched, PinColour.touched]))
        #expect(Components.Schemas.Rating.MenuOptionsPayloadPayload.allCases.map(\.rawValue) == Rating.menuOptionChoices)
        #expect(Components.Schemas.Rating.BusinessTypePayload.allCases.map(\.rawValue) == Rating.businessTypeChoices)
    }
}
