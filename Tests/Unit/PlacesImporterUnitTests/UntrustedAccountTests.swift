import Foundation
import PlatformCore
import Synchronization
import Testing

@testable import PlacesImporter

extension AuthenticatedUser {
    /// A member as its token names it; `trusted: false` is a new install account's token.
    static func member(_ id: String, trusted: Bool = true) -> AuthenticatedUser {
        AuthenticatedUser(id: id, role: .user, entitlements: [], trusted: trusted)
    }
}

/// What costs others is refused to an account its token does not trust (a new install account): a rating in everyone's
/// averages, a place for the admins to review.
@Suite("places-importer: what an untrusted account may not do")
struct UntrustedAccountTests {
    @Test("U8, P3: an untrusted account's rating is refused before anything is read or stored; a trusted one's counts")
    func untrustedRatingRefused() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 0, oldestAgesOutInSeconds: 0))
        let catalogue = MemoryPlaces()
        let rate = RatePlace(catalogue: catalogue, places: store, limits: AccountDayLimits())
        let place = catalogue.insert(review: .approved, addedBy: nil).id
        await #expect(throws: PlacesRefusal.accountNotTrusted) {
            try await rate(place, by: .member("new-install", trusted: false), rating: AccountDayLimitsTests.rating)
        }
        await #expect(throws: PlacesRefusal.accountNotTrusted, "an unknown place tells an untrusted caller nothing more") {
            try await rate(UUID(), by: .member("new-install", trusted: false), rating: AccountDayLimitsTests.rating)
        }
        #expect(store.rated.isEmpty)
        _ = try await rate(place, by: .member("attested-install"), rating: AccountDayLimitsTests.rating)
        #expect(store.rated == [place])
    }

    @Test("U8, P4: an untrusted account adds no place and looks no address up; a trusted one adds its place")
    func untrustedAddRefused() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 0, oldestAgesOutInSeconds: 0))
        let lookups = CountingAddresses()
        let add = AddPlace(places: store, limits: AccountDayLimits(), addresses: lookups)
        await #expect(throws: PlacesRefusal.accountNotTrusted) {
            try await add(
                AccountDayLimitsTests.candidate("Kitchen Desk"), by: .member("new-install", trusted: false), rating: nil, colour: nil,
                locatingAddress: true)
        }
        #expect(store.added.isEmpty && lookups.asked == 0, "nothing added, no look-up spent")
        _ = try await add(AccountDayLimitsTests.candidate("Kitchen Desk"), by: .member("old-install"), rating: nil, colour: nil)
        #expect(store.added == ["Kitchen Desk"])
    }

    @Test("U8: an untrusted refusal is 403 account_not_trusted")
    func untrustedAnswer() {
        let answer = PlacesErrors.answer(for: .accountNotTrusted)
        #expect(answer.status == .forbidden && answer.code == "account_not_trusted")
    }
}

/// Counts the look-ups asked for; knows no address.
final class CountingAddresses: AddressLocating {
    private let count = Mutex(0)
    var asked: Int { count.withLock { $0 } }

    func locate(_ address: String, account: String) async throws -> LocatedAddress? {
        count.withLock { $0 += 1 }
        return nil
    }
}
