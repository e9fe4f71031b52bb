import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// A paid reading from the asker's leave to its kept answer (B4, U6) over memory stores.
@Suite("appointment-booker: giving a paid reading (use case)")
struct GiveReadingTests {
    static let day = ReadingServiceTests.day
    static let network = "203.0.113.0/24"

    static func give(
        states: [String: AccountState] = [:], readings: MemoryReadings = MemoryReadings()
    ) throws -> GiveReading {
        GiveReading(
            readings: try ReadingServiceTests.service(readings: readings),
            accounts: CheckAccount(states: CheckAccountTests.MemoryAccountStates(states: states)))
    }

    static func buyer(_ id: String, holding entitlements: Set<String>) -> AuthenticatedUser {
        AuthenticatedUser(id: id, role: .user, entitlements: entitlements)
    }

    @Test("U6: only an account holding the kind's feature, not revoked since, is given a reading")
    func onlyHoldersAreGiven() async throws {
        let give = try Self.give(states: [AccountKey.of("revoked"): AccountState(role: .user, banned: false, revoked: ["tarot"])])
        _ = try await give.authorize(Self.buyer("holder", holding: ["tarot"]), for: .tarot, from: GiveReadingTests.network)
        await #expect(throws: AccountRefusal.entitlementRequired("tarot")) {
            _ = try await give.authorize(Self.buyer("other", holding: ["compatibility"]), for: .tarot, from: GiveReadingTests.network)
        }
        await #expect(throws: AccountRefusal.entitlementRequired("tarot")) {
            _ = try await give.authorize(Self.buyer("revoked", holding: ["tarot"]), for: .tarot, from: GiveReadingTests.network)
        }
    }

    @Test("B4: the reading drawn is kept in the asker's history under its inputs; asked again the same day, the same one")
    func givenReadingIsKept() async throws {
        let readings = MemoryReadings()
        let give = try Self.give(readings: readings)
        let content = try ReadingEngineTests.content.get()
        let draw = try TarotDraw(ids: content.cards.prefix(3).map(\.id), deck: content.card)
        let buyer = try await give.authorize(Self.buyer("u1", holding: ["tarot"]), for: .tarot, from: GiveReadingTests.network)
        let first = try await give(.tarot(draw), by: buyer, on: Self.day, near: nil)
        let again = try await give(.tarot(draw), by: buyer, on: Self.day, near: nil)
        #expect(first.stored.reading.kind == .tarot && again.stored.id == first.stored.id && readings.count == 1)
        #expect(first.placesToPray == nil, "no position was given")
    }

    @Test("B4: a question of another kind than the leave's is refused, and nothing is kept")
    func leaveIsForOneKind() async throws {
        let readings = MemoryReadings()
        let give = try Self.give(readings: readings)
        let buyer = try await give.authorize(Self.buyer("u2", holding: ["tarot", "fortune_stick"]), for: .tarot, from: GiveReadingTests.network)
        await #expect(throws: GiveReading.Mismatch.self) { _ = try await give(.fortuneStick, by: buyer, on: Self.day, near: nil) }
        #expect(readings.count == 0)
    }
}

/// The free daily horoscope (B4) over memory stores.
@Suite("appointment-booker: the daily horoscope (use case)")
struct ReadDailyHoroscopeTests {
    @Test("B4: an anonymous asker's horoscope is kept nowhere; a signed-in one's once per sign and day")
    func horoscopeKeptForSignedIn() async throws {
        let readings = MemoryReadings()
        let read = ReadDailyHoroscope(readings: try ReadingServiceTests.service(readings: readings))
        let sign = try #require(try ReadingEngineTests.content.get().sign("leo"))
        let anonymous = try await read(sign, on: GiveReadingTests.day, for: nil, from: GiveReadingTests.network, near: nil)
        #expect(anonymous.stored == nil && anonymous.reading.kind == .horoscope && readings.count == 0)
        let member = GiveReadingTests.buyer("u1", holding: [])
        let first = try await read(sign, on: GiveReadingTests.day, for: member, from: GiveReadingTests.network, near: nil)
        let again = try await read(sign, on: GiveReadingTests.day, for: member, from: GiveReadingTests.network, near: nil)
        #expect(first.stored?.id != nil && again.stored?.id == first.stored?.id && readings.count == 1)
        #expect(first.reading.scores == anonymous.reading.scores, "the same for everyone with the sign and day")
    }

    @Test("B4, X3: an anonymous or guest caller's bad horoscope asks places-importer nothing; a member's asks for the cell")
    func onlyMembersHoroscopeAsks() async throws {
        let content = try ReadingEngineTests.content.get()
        let requests = MemoryWorshipRequests()
        let read = ReadDailyHoroscope(readings: try ReadingServiceTests.service(requests: requests))
        let (sign, day) = try #require(
            (0..<120).lazy.flatMap { offset in content.signs.map { ($0, GiveReadingTests.day.adding(days: offset)) } }
                .first { read.readings.engine.horoscope(sign: $0.0, on: $0.1).verdict == .bad })
        let guest = AuthenticatedUser(id: "g1", role: .guest, entitlements: [])
        for caller in [nil, guest] {
            let answer = try await read(sign, on: day, for: caller, from: GiveReadingTests.network, near: (18.7883, 98.9853))
            #expect(answer.placesToPray?.status == PlacesToPrayStatus.none && answer.reading.verdict == .bad)
        }
        #expect(requests.asked.withLock { $0.isEmpty }, "nobody was asked for anonymous and guest readings")
        let member = try await read(
            sign, on: day, for: GiveReadingTests.buyer("m1", holding: []), from: GiveReadingTests.network, near: (18.7883, 98.9853))
        #expect(member.placesToPray?.status == .looking && requests.asked.withLock { $0.count } == 1)
        #expect(requests.networks.withLock { $0 } == [GiveReadingTests.network], "the asker's network spends its share")
    }
}
