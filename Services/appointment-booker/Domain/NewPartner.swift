import Foundation

/// The profile an admin adds for a partner account (B1): not approved and its fee unpaid until an admin or the
/// payment provider says otherwise. The id is the account's id in auth.
package struct NewPartner: Sendable, Equatable {
    package var id: UUID
    package var name: String
    package var description: String
    package var contact: String
    package var photoURL: String?
    package var languages: [String]
    package var timeZone: String

    package init(id: UUID, name: String, description: String, contact: String, photoURL: String? = nil, languages: [String], timeZone: String) {
        self.id = id
        self.name = name
        self.description = description
        self.contact = contact
        self.photoURL = photoURL
        self.languages = languages
        self.timeZone = timeZone
    }
}
