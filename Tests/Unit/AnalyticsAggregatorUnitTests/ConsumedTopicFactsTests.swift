import Foundation
import PlatformEvents
import Testing

@testable import AnalyticsAggregator

/// What the users and user-cities topics' handlers read from a batch before writing anything (N2, N4, U8):
/// survey accounts, verified survey addresses in one lock order, ended accounts in order, and the least name each
/// city was given.
@Suite("analytics-aggregator: facts from other services' topics")
struct ConsumedTopicFactsTests {
    static func received<Payload: Codable & Sendable>(_ type: EventType, _ payload: Payload, producer: String = "auth") throws -> ReceivedEvent {
        try ReceivedEvent(
            bytes: try EventEnvelope(
                type: type, occurredAt: Date(timeIntervalSince1970: 1_800_000_000), producer: producer, key: "k", payload: payload
            )
            .encoded())
    }

    static func city(_ id: Int, _ name: String) -> ForecastCity {
        ForecastCity(
            id: id, name: name, region: "", countryCode: "TH", country: "Thailand", latitude: 13.75, longitude: 100.5, timeZone: "Asia/Bangkok")
    }

    @Test("N4: only survey accounts are kept; verified addresses come sorted by mailbox, then user; a bad mailbox is skipped")
    func surveyAccounts() throws {
        let (a, b, c) = (UUID(), UUID(), UUID())
        let facts = try SurveyAccountFacts(decoding: [
            try Self.received(EventTypes.userRegistered, UserRegistered(userId: a, kind: .survey, role: .user)),
            try Self.received(EventTypes.userRegistered, UserRegistered(userId: b, kind: .install, role: .user, app: .weather)),
            try Self.received(EventTypes.userEmailVerified, UserEmailVerified(userId: b, kind: .survey, mailboxKey: "m-2")),
            try Self.received(EventTypes.userEmailVerified, UserEmailVerified(userId: a, kind: .survey, mailboxKey: "m-1")),
            try Self.received(EventTypes.userEmailVerified, UserEmailVerified(userId: c, kind: .dashboard, mailboxKey: "m-0")),
            try Self.received(EventTypes.userEmailVerified, UserEmailVerified(userId: c, kind: .survey, mailboxKey: "")),
            try Self.received(EventTypes.userLoggedIn, UserLoggedIn(userId: a, kind: .survey)),
        ])
        #expect(facts.registered.map(\.user) == [a.uuidString.lowercased()])
        #expect(facts.verified.map(\.mailboxKey) == ["m-1", "m-2"])
        #expect(facts.verified.map(\.user) == [a, b].map { $0.uuidString.lowercased() })
        #expect(facts.ended.isEmpty)
    }

    @Test("U9: deletions and merges are kept in the batch's order; a batch of logins holds nothing")
    func endedAccounts() throws {
        let (a, b) = (UUID(), UUID())
        let merged = try Self.received(EventTypes.userMerged, UserMerged(fromUserId: a, intoUserId: b))
        let deleted = try Self.received(EventTypes.userDeleted, UserDeleted(userId: b, by: .owner))
        let facts = try SurveyAccountFacts(decoding: [merged, deleted])
        #expect(facts.ended.map(\.header.id) == [merged.header.id, deleted.header.id])
        #expect(try SurveyAccountFacts(decoding: [try Self.received(EventTypes.userLoggedIn, UserLoggedIn(userId: a, kind: .survey))]).isEmpty)
    }

    @Test("N4: a payload that does not decode fails the batch (the consumer then dead-letters that event)")
    func badPayload() throws {
        let bad = try Self.received(EventTypes.userRegistered, ["userId": "not-a-uuid"])
        #expect(throws: (any Error).self) { try SurveyAccountFacts(decoding: [bad]) }
        let badCity = try Self.received(EventTypes.favouriteAdded, ["city": 1], producer: "weather-fetcher")
        #expect(throws: (any Error).self) { try CityNames(decoding: [badCity]) }
    }

    @Test("N2: each city keeps the least trimmed name it was given, whatever the order; removals and blank names are skipped")
    func cityNames() throws {
        func added(_ id: Int, _ name: String) throws -> ReceivedEvent {
            try Self.received(EventTypes.favouriteAdded, FavouriteChanged(userId: "u1", city: Self.city(id, name)), producer: "weather-fetcher")
        }
        let removed = try Self.received(
            EventTypes.favouriteRemoved, FavouriteChanged(userId: "u1", city: Self.city(3, "Gone")), producer: "weather-fetcher")
        let events = [try added(1, "  Krung Thep "), try added(1, "Bangkok"), try added(2, "   "), try added(0, "Nowhere"), removed]
        let forward = try CityNames(decoding: events)
        #expect(forward.names == [1: "Bangkok"])
        #expect(try CityNames(decoding: events.reversed()) == forward)
        #expect(try CityNames(decoding: [try added(4, String(repeating: "x", count: 300))]).names[4]?.count == 200)
    }
}

/// A topic's handler takes its own topic's events only (N2): another topic's event fails the batch, so the consumer
/// applies it event by event, each through its own topic's handler.
@Suite("analytics-aggregator: one handler per consumed topic")
struct TopicOwnTypesTests {
    @Test("N2: a batch of the topic's own types passes; one event of another topic refuses it")
    func ownTypesOnly() throws {
        let registered = try ConsumedTopicFactsTests.received(EventTypes.userRegistered, UserRegistered(userId: UUID(), kind: .survey, role: .user))
        let answered = try ConsumedTopicFactsTests.received(
            EventTypes.pollAnswered, PollAnswered(userId: "u1", questionId: "benefit", answer: true), producer: "analytics-aggregator")
        try TopicCatalogue.users.requireOwnTypes([registered])
        try TopicCatalogue.telemetry.requireOwnTypes([answered])
        try TopicCatalogue.telemetry.requireOwnTypes([])
        #expect(throws: EventDecodingError.self) { try TopicCatalogue.telemetry.requireOwnTypes([answered, registered]) }
        #expect(throws: EventDecodingError.self) { try TopicCatalogue.userCities.requireOwnTypes([registered]) }
    }
}
