/// A user's role across the apps (U5).
public enum UserRole: String, Codable, Sendable, CaseIterable {
    case guest
    case user
    case partner
    case admin
}
