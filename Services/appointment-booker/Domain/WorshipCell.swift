import PlatformCore

/// The cell of the grid in which appointment-booker asks places-importer for places of worship (B4): 0.1° a
/// side (about 11 km), so one request serves every reading nearby and a city is not asked for once per user.
package struct WorshipCell: Equatable, Sendable {
    package static let degrees = 0.1

    package let id: String

    /// The cell holding the point, named by its south-west corner (`13.70,100.50`).
    package init(latitude: Double, longitude: Double) {
        let south = ((latitude / Self.degrees).rounded(.down) * Self.degrees)
        let west = ((longitude / Self.degrees).rounded(.down) * Self.degrees)
        id = "\(Self.text(south)),\(Self.text(west))"
    }

    private static func text(_ value: Double) -> String {
        let tenths = (value * 10).rounded().roundedClampedInt
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}

/// Whether places of worship are known near a bad reading's point (B4).
package enum PlacesToPrayStatus: String, Sendable {
    /// Some are within the radius.
    case found
    /// None yet: places-importer was asked and has not answered.
    case looking
    /// places-importer answered and there are none within the radius.
    case none
}
