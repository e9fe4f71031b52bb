import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The hotel survey's submissions (N4), each published as `survey.submitted` (a reason as `survey.explained`)
/// through the outbox in the transaction that stores it; the survey's results and the reasons admins read come
/// from the aggregates built from those events.
struct SurveyStore: Sendable {
    let client: PostgresClient
    let topic: String
    /// Whose pseudonym must not be made again (`AccountPseudonyms`).
    let erased: ErasedAccounts
    /// When the overall rating's coupon is issued (a verified address, once per mailbox).
    let coupons: SurveyCoupons
    let logger: Logger

    func isSurveyAccount(_ user: String) async throws -> Bool {
        let rows = try await client.tracedQuery("SELECT 1 FROM survey_accounts WHERE user_id = \(user)", logger: logger)
        return try await !rows.decode(Int.self).collectAll().isEmpty
    }

    func status(of user: String) async throws -> SurveyStatus {
        var status = SurveyStatus()
        let services = try await client.tracedQuery("SELECT service, points FROM survey_services WHERE user_id = \(user)", logger: logger)
        for try await (service, points) in services.decode((String, Int).self) { status.services[service] = points }
        let overall = try await client.tracedQuery(
            "SELECT stars, points, coupon_code, coupon_status FROM survey_overall WHERE user_id = \(user)", logger: logger)
        for try await (stars, points, coupon, couponStatus) in overall.decode((Int, Int, String?, String).self) {
            status.overall = SurveyOverall(stars: stars, points: points, coupon: coupon, couponStatus: .init(rawValue: couponStatus) ?? .issued)
        }
        return status
    }

    func submitService(user: String, service: String, ratings: [String], points: Int) async throws {
        try await client.inTransaction(logger: logger) { connection in
            // The overall rating closes the survey: one guest's submissions take turns (a transaction lock on
            // the guest), so a service rated at the same moment as the overall rating is either in its points
            // or refused.
            try await lockGuest(user, on: connection)
            let closed = try await connection.tracedQuery(
                "SELECT 1 FROM survey_overall WHERE user_id = \(user)", logger: logger
            ).decode(Int.self).collectAll()
            guard closed.isEmpty else { throw SurveyRefusal.closed }
            let inserted = try await connection.tracedQuery(
                """
                INSERT INTO survey_services (user_id, service, answers, points) VALUES (\(user), \(service), \(ratings), \(points))
                ON CONFLICT DO NOTHING RETURNING service
                """, logger: logger
            ).decode(String.self).collectAll()
            guard !inserted.isEmpty else { throw SurveyRefusal.alreadySubmitted(.service) }
            let event = SurveySubmitted(
                userId: user, part: .service, service: HotelService(rawValue: service), points: points,
                belowGood: HotelSurvey.isBelowGood(points: points))
            try await Outbox.enqueue(try await envelope(event, user: user, on: connection), toTopicNamed: topic, on: connection, logger: logger)
        }
    }

    /// Stores the overall rating with a fresh coupon when the account's address is verified (else the coupon
    /// waits for it); `stars` nil: one per 100 points of the rated services.
    func submitOverall(user: String, stars ownStars: Int?) async throws -> SurveyOverall {
        for _ in 0..<5 {
            do {
                return try await submitOverallOnce(user: user, stars: ownStars)
            } catch let error as PSQLError where error.sqlState == .uniqueViolation {
                // The coupon code clashed with an earlier one (the user's own row conflicts are handled inside).
                logger.info("coupon code clash; drawing another")
                continue
            }
        }
        throw CouponClash()
    }

    struct CouponClash: Error {}

    private func submitOverallOnce(user: String, stars ownStars: Int?) async throws -> SurveyOverall {
        try await client.inTransaction(logger: logger) { connection in
            try await lockGuest(user, on: connection)
            let rated = try await connection.tracedQuery(
                "SELECT count(*)::bigint, coalesce(sum(points), 0)::bigint FROM survey_services WHERE user_id = \(user)", logger: logger
            ).decode((Int, Int).self).collectAll()
            guard let (count, points) = rated.first, count > 0 else { throw SurveyRefusal.noServiceRated }
            let stars = ownStars ?? HotelSurvey.suggestedStars(totalPoints: points)
            let done = try await connection.tracedQuery("SELECT 1 FROM survey_overall WHERE user_id = \(user)", logger: logger)
                .decode(Int.self).collectAll()
            guard done.isEmpty else { throw SurveyRefusal.alreadySubmitted(.overall) }
            let (couponStatus, coupon) = try await coupons.decide(for: user, on: connection, logger: logger)
            let inserted = try await connection.tracedQuery(
                """
                INSERT INTO survey_overall (user_id, stars, own_stars, points, coupon_code, coupon_status)
                VALUES (\(user), \(stars), \(ownStars != nil), \(points), \(coupon), \(couponStatus.rawValue))
                ON CONFLICT (user_id) DO NOTHING RETURNING user_id
                """, logger: logger
            ).decode(String.self).collectAll()
            guard !inserted.isEmpty else { throw SurveyRefusal.alreadySubmitted(.overall) }
            let event = SurveySubmitted(userId: user, part: .overall, points: points, stars: stars, belowGood: HotelSurvey.asksWhy(stars: stars))
            try await Outbox.enqueue(try await envelope(event, user: user, on: connection), toTopicNamed: topic, on: connection, logger: logger)
            return SurveyOverall(stars: stars, points: points, coupon: coupon, couponStatus: couponStatus)
        }
    }

    /// Keeps the reason and publishes it (`survey.explained`) in one transaction, once per rated part.
    func explainService(user: String, service: String, why: String) async throws -> SurveyExplainOutcome {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                UPDATE survey_services SET why = \(why), why_published = true
                WHERE user_id = \(user) AND service = \(service) AND points < \(HotelSurvey.goodThreshold) AND why IS NULL
                RETURNING points
                """, logger: logger)
            if let points = try await rows.decode(Int.self).collectAll().first {
                let event = SurveyExplained(part: .service, service: HotelService(rawValue: service), points: points, why: why)
                try await Outbox.enqueue(Self.explainedEnvelope(event), toTopicNamed: topic, on: connection, logger: logger)
                return .stored
            }
            let found = try await connection.tracedQuery(
                "SELECT points FROM survey_services WHERE user_id = \(user) AND service = \(service)", logger: logger
            ).decode(Int.self).collectAll()
            guard let points = found.first else { return .notSubmitted }
            // Below good and not updated: the reason was given before.
            return HotelSurvey.isBelowGood(points: points) ? .alreadyExplained : .notBelowGood
        }
    }

    func explainOverall(user: String, why: String) async throws -> SurveyExplainOutcome {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                UPDATE survey_overall SET why = \(why), why_published = true
                WHERE user_id = \(user) AND stars <= 3 AND why IS NULL RETURNING stars, points
                """,
                logger: logger)
            if let (stars, points) = try await rows.decode((Int, Int).self).collectAll().first {
                let event = SurveyExplained(part: .overall, points: points, stars: stars, why: why)
                try await Outbox.enqueue(Self.explainedEnvelope(event), toTopicNamed: topic, on: connection, logger: logger)
                return .stored
            }
            let found = try await connection.tracedQuery("SELECT stars FROM survey_overall WHERE user_id = \(user)", logger: logger)
                .decode(Int.self).collectAll()
            guard let stars = found.first else { return .notSubmitted }
            return HotelSurvey.asksWhy(stars: stars) ? .alreadyExplained : .notBelowGood
        }
    }

    /// Takes the guest's turn, first in each writing transaction; an account deleted meanwhile writes nothing.
    private func lockGuest(_ user: String, on connection: PostgresConnection) async throws {
        guard try await AccountPseudonyms.ofLive(user, erased: erased, on: connection, logger: logger) != nil else {
            throw SurveyRefusal.accountDeleted
        }
        try await SurveyCoupons.lockTaker(user, on: connection, logger: logger)
    }

    /// The kept topic names the guest by the account's pseudonym only (U9).
    private func envelope(_ event: SurveySubmitted, user: String, on connection: PostgresConnection) async throws -> EventEnvelope<SurveySubmitted> {
        let named = try await AccountPseudonyms.named(user, erased: erased, on: connection, logger: logger)
        var event = event
        event.userId = named
        return EventEnvelope(type: EventTypes.surveySubmitted, producer: ServiceIdentity.analyticsAggregator.name, key: named, payload: event)
    }

    /// A reason's event is keyed by a key of its own, never the guest's id: `analytics.telemetry` is kept for rebuilds,
    /// and a free-text reason keyed by the account would outlive the account's erasure linked to it (U9). Reasons need
    /// no order among themselves.
    static func explainedEnvelope(_ event: SurveyExplained, at time: Date = Date()) -> EventEnvelope<SurveyExplained> {
        EventEnvelope(
            type: EventTypes.surveyExplained, occurredAt: time, producer: ServiceIdentity.analyticsAggregator.name,
            key: UUID().uuidString.lowercased(), payload: event)
    }
}
