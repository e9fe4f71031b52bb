import Foundation
import PlatformCore

/// What an admin changes on an account (U5): each field nil when it stays as it is.
struct AccountChange: Sendable, Equatable {
    var displayName: String?
    var role: UserRole?
    var banned: Bool?

    /// The role to announce in `user.role-changed`: only a real change is news to the other services.
    func changedRole(from previous: String) -> UserRole? {
        guard let role, role.rawValue != previous else { return nil }
        return role
    }

    /// A banned account keeps no session, so its refresh tokens stop working at once.
    var endsSessions: Bool { banned == true }
}
