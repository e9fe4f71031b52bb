import Foundation
import PlatformCore

/// An admin invites a fortune teller, another admin or a user (B1, U5): a dashboard account without a password
/// whose owner chooses one through a mailed link.
package struct InviteAccount: Sendable {
    package let invitations: any Invitations

    package init(invitations: any Invitations) {
        self.invitations = invitations
    }

    package enum Refusal: Error, Equatable {
        case invalidEmail
        case emailTaken
    }

    /// `text`: the address as the admin typed it, trimmed.
    package func run(email text: String, role: UserRole) async throws -> Account {
        guard let email = EmailAddress(text) else { throw Refusal.invalidEmail }
        guard let invited = try await invitations.invite(email: email, role: role) else { throw Refusal.emailTaken }
        return invited
    }
}
