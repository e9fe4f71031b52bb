import Foundation

/// The signed-in user edits their own profile (U9): a name that is not blank, a time zone Foundation knows.
package struct UpdateProfile: Sendable {
    package let profiles: any Profiles

    package init(profiles: any Profiles) {
        self.profiles = profiles
    }

    package enum Refusal: Error, Equatable {
        case blankDisplayName
        case unknownTimeZone
        /// The account was ended while its token still lived.
        case noAccount
    }

    package func run(of id: UUID, change: ProfileChange) async throws {
        switch change.refusal {
        case .blankDisplayName: throw Refusal.blankDisplayName
        case .unknownTimeZone: throw Refusal.unknownTimeZone
        case nil: break
        }
        guard
            try await profiles.updateProfile(
                of: id, displayName: change.displayName, language: change.language, timeZone: change.timeZone, zodiacSign: change.zodiacSign)
        else { throw Refusal.noAccount }
    }
}
