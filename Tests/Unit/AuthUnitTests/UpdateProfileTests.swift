import Foundation
import Testing

@testable import Auth

/// The signed-in user's own profile (U9) over a memory store.
@Suite("auth: updating the profile")
struct UpdateProfileTests {
    let accounts = MemoryAdministeredAccounts()
    var update: UpdateProfile { UpdateProfile(profiles: accounts) }

    @Test("U9: the fields given are set, the others stay")
    func setsGivenFields() async throws {
        let id = accounts.add()
        try await update.run(of: id, change: ProfileChange(displayName: "Nok", timeZone: "Asia/Bangkok"))
        try await update.run(of: id, change: ProfileChange(language: "th", zodiacSign: "leo"))
        #expect(accounts.account(id)?.displayName == "Nok")
        #expect(accounts.profile(id) == AccountStore.Profile(language: "th", timeZone: "Asia/Bangkok", zodiacSign: "leo"))
    }

    @Test("U9: a blank name, then an unknown time zone, is refused before anything is saved")
    func refusalsInOrder() async throws {
        let id = accounts.add()
        await #expect(throws: UpdateProfile.Refusal.blankDisplayName) {
            try await update.run(of: id, change: ProfileChange(displayName: "", timeZone: "Mars/Olympus"))
        }
        await #expect(throws: UpdateProfile.Refusal.unknownTimeZone) {
            try await update.run(of: id, change: ProfileChange(language: "en", timeZone: "Mars/Olympus"))
        }
        #expect(accounts.profile(id)?.language == nil, "a refused change saves no field")
    }

    @Test("U9: an account ended while its token lived is answered as gone")
    func noAccount() async throws {
        await #expect(throws: UpdateProfile.Refusal.noAccount) { try await update.run(of: UUID(), change: ProfileChange(language: "en")) }
    }

    @Test("U9: a time zone is an IANA identifier of at most 64 characters")
    func timeZoneRule() {
        #expect(ProfileChange.isTimeZone("Asia/Bangkok"))
        #expect(ProfileChange.isTimeZone("UTC"))
        #expect(!ProfileChange.isTimeZone("Asia/Atlantis"))
        #expect(!ProfileChange.isTimeZone(String(repeating: "A", count: 65)))
    }
}
