import Foundation

/// The profile an admin adds for a partner account (B1): not approved and its fee unpaid until an admin or the
/// payment provider says otherwise. The id is the account's id in auth.
struct NewPartner: Sendable, Equatable {
    var id: UUID
    var name: String
    var description: String
    var contact: String
    var photoURL: String?
    var languages: [String]
    var timeZone: String
}
