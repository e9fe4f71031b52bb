import Foundation
import PlatformCore

/// Where an invited account is made: Postgres in the service, memory in the unit tests.
package protocol Invitations: Sendable {
    /// A dashboard account with `role` and no password, `user.registered` published and a choose-your-password
    /// link mailed, all or nothing; nil when the address has an account already.
    func invite(email: EmailAddress, role: UserRole) async throws -> Account?
}
