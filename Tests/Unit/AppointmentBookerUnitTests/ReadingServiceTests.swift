import Foundation
import PlatformCore
import PlatformHTTP
import Testing

@testable import AppointmentBooker

/// What a compatibility reading asks (B4), and `ReadingService` keeping readings and finding places to pray over
/// memory stores.
@Suite("appointment-booker: reading requests and service")
struct ReadingServiceTests {
    static let day = CivilDate(parsing: "2027-01-04")!

    static func service(
        readings: MemoryReadings = MemoryReadings(), places: [NearbyWorshipPlace] = [],
        requests: MemoryWorshipRequests = MemoryWorshipRequests()
    ) throws -> ReadingService {
        ReadingService(
            content: try ReadingEngineTests.content.get(), key: "test-reading-key", store: readings,
            worship: MemoryWorshipPlaces(places: places), worshipRequests: requests, placesRadius: 20_000,
            sharing: .init(baseURL: "https://example.com", lifetime: 30 * 86_400))
    }

    static func reading(_ verdict: Verdict) -> Reading {
        Reading(
            kind: .tarot, date: day.description, title: .init(en: "t", th: "t"), text: .init(en: "x", th: "x"), verdict: verdict,
            scores: .init(love: 50, work: 50, money: 50, health: 50), parts: [])
    }

    @Test("B4: compatibility asks two signs or two names, never both nor neither")
    func compatibilityAsksSignsOrNames() throws {
        let content = try ReadingEngineTests.content.get()
        #expect(throws: CompatibilityQuestion.Refusal.notSignsOrNames) { try CompatibilityQuestion(signs: nil, names: nil, in: content) }
        #expect(throws: CompatibilityQuestion.Refusal.notSignsOrNames) {
            try CompatibilityQuestion(signs: ["leo", "aries"], names: ["Somchai", "Malee"], in: content)
        }
        #expect(throws: CompatibilityQuestion.Refusal.notTwoSigns) { try CompatibilityQuestion(signs: ["leo"], names: nil, in: content) }
        #expect(throws: CompatibilityQuestion.Refusal.notTwoSigns) { try CompatibilityQuestion(signs: ["leo", "pluto"], names: nil, in: content) }
        #expect(throws: CompatibilityQuestion.Refusal.notTwoNames) { try CompatibilityQuestion(signs: nil, names: ["Somchai"], in: content) }
        #expect(throws: CompatibilityQuestion.Refusal.notTwoNames) { try CompatibilityQuestion(signs: nil, names: ["Somchai", ""], in: content) }
        #expect(throws: CompatibilityQuestion.Refusal.notTwoNames) {
            try CompatibilityQuestion(signs: nil, names: ["Somchai", String(repeating: "ก", count: 101)], in: content)
        }
        #expect(
            try CompatibilityQuestion(signs: nil, names: ["Somchai", String(repeating: "ก", count: 100)], in: content).inputs.hasPrefix("names:"))
    }

    @Test("B4: the same two signs or names asked the other way round, or in other case, are the same reading")
    func compatibilityInputsIgnoreOrder() throws {
        let content = try ReadingEngineTests.content.get()
        let engine = try ReadingServiceTests.service().engine
        let signs = try CompatibilityQuestion(signs: ["leo", "aries"], names: nil, in: content)
        let swapped = try CompatibilityQuestion(signs: ["aries", "leo"], names: nil, in: content)
        #expect(signs.inputs == "signs:aries,leo" && swapped.inputs == signs.inputs)
        // The title names the signs as asked; what is read of the pair does not depend on the order.
        let (reading, swappedReading) = (signs.reading(by: engine, on: Self.day), swapped.reading(by: engine, on: Self.day))
        #expect(reading.kind == .compatibility && reading.scores == swappedReading.scores && reading.verdict == swappedReading.verdict)
        let names = try CompatibilityQuestion(signs: nil, names: ["Somchai", "malee"], in: content)
        let other = try CompatibilityQuestion(signs: nil, names: ["MALEE", "somchai"], in: content)
        #expect(names.inputs == "names:malee,somchai" && other.inputs == names.inputs)
        #expect(names.reading(by: engine, on: Self.day).kind == .compatibility)
    }

    @Test("B4: a tarot reading is named by its cards in the order picked, a phone reading by its ten digits")
    func tarotAndPhoneInputs() throws {
        let content = try ReadingEngineTests.content.get()
        let ids = content.cards.prefix(3).map(\.id)
        #expect(try TarotDraw(ids: ids, deck: content.card).inputs == ids.joined(separator: ","))
        #expect(try TarotDraw(ids: ids.reversed(), deck: content.card).inputs == ids.reversed().joined(separator: ","))
        #expect(PhoneNumberRule.number("081-234 5678")?.inputs == "0812345678")
        #expect(PhoneNumberRule.number("(081) 234.5678")?.inputs == PhoneNumberRule.number("0812345678")?.inputs)
    }

    @Test("B4: a reading asked again the same day is the one kept; past the limit nothing more is kept")
    func keepOncePerDayWithinLimit() async throws {
        let readings = MemoryReadings(dailyLimit: 1)
        let service = try Self.service(readings: readings)
        let first = try await service.keep(Self.reading(.good), user: "u", inputs: "a", day: Self.day)
        let again = try await service.keep(Self.reading(.good), user: "u", inputs: "a", day: Self.day)
        #expect(again.id == first.id && readings.count == 1)
        await #expect(throws: TooManyReadings(limit: 1, retryAfterSeconds: 86_400)) {
            _ = try await service.keep(Self.reading(.good), user: "u", inputs: "b", day: Self.day)
        }
        #expect(readings.count == 1)
    }

    @Test("B4: only a bad verdict with a position gets places to pray")
    func placesOnlyAfterBadVerdict() async throws {
        let requests = MemoryWorshipRequests()
        let service = try Self.service(requests: requests)
        #expect(
            try await service.placesToPray(after: Self.reading(.good), near: (13.75, 100.5), search: .askingWhenUnknown(network: "203.0.113.0/24"))
                == nil)
        #expect(
            try await service.placesToPray(after: Self.reading(.neutral), near: (13.75, 100.5), search: .askingWhenUnknown(network: "203.0.113.0/24"))
                == nil)
        #expect(try await service.placesToPray(after: Self.reading(.bad), near: nil, search: .askingWhenUnknown(network: "203.0.113.0/24")) == nil)
        #expect(requests.asked.withLock { $0.isEmpty })
    }

    @Test("B4: places the read model knows are found without asking places-importer")
    func knownPlacesFound() async throws {
        let requests = MemoryWorshipRequests()
        let temple = NearbyWorshipPlace(name: "Wat Pho", latitude: 13.7465, longitude: 100.4927, address: nil, distanceMeters: 300)
        let service = try Self.service(places: Array(repeating: temple, count: 7), requests: requests)
        let found = try #require(
            try await service.placesToPray(after: Self.reading(.bad), near: (13.75, 100.5), search: .askingWhenUnknown(network: "203.0.113.0/24")))
        #expect(found.status == .found && found.places.count == 5)
        #expect(requests.asked.withLock { $0.isEmpty })
    }

    @Test("B4: where the read model knows none, places-importer is asked and its standing is told")
    func nonePlacesAsked() async throws {
        for answer in [PlacesToPrayStatus.looking, .none] {
            let requests = MemoryWorshipRequests(answer: answer)
            let service = try Self.service(requests: requests)
            let found = try #require(
                try await service.placesToPray(after: Self.reading(.bad), near: (13.75, 100.5), search: .askingWhenUnknown(network: "203.0.113.0/24"))
            )
            #expect(found.status == answer && found.places.isEmpty)
            #expect(requests.asked.withLock { $0.map(\.latitude) } == [13.75])
        }
    }

    @Test("B4, X3: a reading that may not ask is told what is known of the cell and asks places-importer nothing")
    func knownOnlyNeverAsks() async throws {
        for (standing, told) in [(PlacesToPrayStatus?.none, PlacesToPrayStatus.none), (.looking, .looking), (PlacesToPrayStatus.none, .none)] {
            let requests = MemoryWorshipRequests(standing: standing)
            let service = try Self.service(requests: requests)
            let found = try #require(try await service.placesToPray(after: Self.reading(.bad), near: (89.95, 0.05), search: .knownOnly))
            #expect(found.status == told && found.places.isEmpty, "standing \(String(describing: standing))")
            #expect(requests.asked.withLock { $0.isEmpty })
        }
    }

    @Test("B4, X3: only a member may cause a request for places; anonymous and guest callers only read")
    func onlyMembersAsk() {
        let network = "203.0.113.0/24"
        #expect(PlacesSearch(for: nil, network: network) == .knownOnly)
        #expect(PlacesSearch(for: AuthenticatedUser(id: "g", role: .guest, entitlements: []), network: network) == .knownOnly)
        for role in [UserRole.user, .partner, .admin] {
            #expect(
                PlacesSearch(for: AuthenticatedUser(id: "m", role: role, entitlements: []), network: network) == .askingWhenUnknown(network: network))
        }
        let newInstall = AuthenticatedUser(id: "i", role: .user, entitlements: [], trusted: false)
        #expect(PlacesSearch(for: newInstall, network: network) == .knownOnly, "a new install account does not spend everyone's budget")
    }

    @Test("B4, X3: a position must lie within 85° of the equator (422); off the globe is 400; one coordinate alone 422")
    func latitudeWithinReach() throws {
        for latitude in [85.0, -85.0, 13.75, 0] {
            #expect(try ReadingRequest.position(latitude: latitude, longitude: 0.05)?.0 == latitude)
        }
        #expect(try ReadingRequest.position(latitude: nil, longitude: nil) == nil)
        for (latitude, longitude, status, code) in [
            (89.95, 0.05, 422, "validation_failed"), (-85.01, 100, 422, "validation_failed"), (90.5, 0, 400, "invalid_request"),
            (10, 181, 400, "invalid_request"),
        ] {
            let error = #expect(throws: APIError.self) { try ReadingRequest.position(latitude: latitude, longitude: longitude) }
            #expect(error?.status.code == status && error?.code == code, "\(latitude),\(longitude)")
        }
        let alone = #expect(throws: APIError.self) { try ReadingRequest.position(latitude: 13.7, longitude: nil) }
        #expect(alone?.status.code == 422)
    }
}
