/// The apps an install account belongs to (U8).
public enum InstallApp: String, Codable, Sendable, CaseIterable {
    case weather, places, horoscope
}
