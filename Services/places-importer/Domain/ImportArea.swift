import Foundation

/// An area imported from the providers (P1).
package struct ImportArea: Sendable, Equatable {
    package var id: UUID
    package var name: String
    package var box: GeoBox
    /// Import places of worship too (the horoscope app's places to pray, B4).
    package var placesOfWorship = false

    package init(id: UUID, name: String, box: GeoBox, placesOfWorship: Bool = false) {
        self.id = id
        self.name = name
        self.box = box
        self.placesOfWorship = placesOfWorship
    }
}
