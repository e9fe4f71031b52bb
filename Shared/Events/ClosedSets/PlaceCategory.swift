/// What a place is (P1): the workplaces the places app lists, and places of worship for the horoscope app (B4).
public enum PlaceCategory: String, Codable, Sendable, CaseIterable {
    case coworking, cafe, library, bar, other
    /// Temples, shrines, churches: imported only for areas that ask for them (the horoscope app's places to pray, B4).
    case worship
}
