import Foundation
import PlatformCore
import PlatformEvents

/// Which account may be merged into the one its app signed in to (U9).
package enum InstallMerge {
    /// Only a plain app install merges: one an admin made a partner or an admin has rows under its id (a fortune
    /// teller's profile and appointments) that no merge carries; and an account never merges into itself.
    package static func mayMerge(from: UUID, kind: String, role: String, into: UUID) -> Bool {
        from != into && kind == AccountKind.install.rawValue && role == UserRole.user.rawValue
    }
}
