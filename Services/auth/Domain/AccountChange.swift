import Foundation
import PlatformCore

/// What an admin changes on an account (U5): each field nil when it stays as it is.
package struct AccountChange: Sendable, Equatable {
    package var displayName: String?
    package var role: UserRole?
    package var banned: Bool?

    package init(displayName: String? = nil, role: UserRole? = nil, banned: Bool? = nil) {
        self.displayName = displayName
        self.role = role
        self.banned = banned
    }

    /// The role to announce in `user.role-changed`: only a real change is news to the other services.
    package func changedRole(from previous: String) -> UserRole? {
        guard let role, role.rawValue != previous else { return nil }
        return role
    }

    /// A banned account keeps no session, so its refresh tokens stop working at once.
    package var endsSessions: Bool { banned == true }
}
