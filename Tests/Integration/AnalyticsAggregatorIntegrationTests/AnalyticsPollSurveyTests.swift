import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AnalyticsAggregator

/// The poll (N3) and the hotel survey (N4), rule by rule, through the real service, topic and aggregates.
@Suite("analytics poll and survey (N3, N4)")
struct AnalyticsPollSurveyTests {
    @Test("N3: yes/no questions answered once per user, results in percent, the seed's thank-you")
    func poll() async throws {
        try await AnalyticsTestHarness.run { harness in
            let (_, poll) = try await harness.request(.get, "/v1/poll")
            #expect(poll["questions"].array.map { $0["id"].string ?? "" } == ["benefit", "awareness"])
            #expect(poll["thankYou"].string == "Thank you for your answer")

            var tokens: [String] = []
            for answer in [true, true, false] {
                let token = try await harness.userToken()
                tokens.append(token)
                let (status, body) = try await harness.request(
                    .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": answer]]], bearer: token)
                #expect(status == .created)
                #expect(body["message"].string == "Thank you for your answer")
            }
            // Once per question: a second answer is 409 and stores nothing, even with a new question beside it.
            let (again, againBody) = try await harness.request(
                .post, "/v1/poll/answers",
                json: ["answers": [["questionId": "awareness", "answer": true], ["questionId": "benefit", "answer": false]]], bearer: tokens[0])
            #expect(again == .conflict && againBody["error"]["code"].string == "already_answered")
            let (mine, mineBody) = try await harness.request(.get, "/v1/poll", bearer: tokens[0])
            #expect(mine == .ok && mineBody["questions"][0]["answer"].bool == true && mineBody["questions"][1]["answer"].raw == nil)

            let (unknown, unknownBody) = try await harness.request(
                .post, "/v1/poll/answers", json: ["answers": [["questionId": "nope", "answer": true]]], bearer: tokens[1])
            #expect(unknown == .unprocessableContent && unknownBody["error"]["code"].string == "unknown_question")
            let (twice, twiceBody) = try await harness.request(
                .post, "/v1/poll/answers",
                json: ["answers": [["questionId": "awareness", "answer": true], ["questionId": "awareness", "answer": false]]], bearer: tokens[1])
            #expect(twice == .unprocessableContent && twiceBody["error"]["code"].string == "duplicate_question")
            let (guest, guestBody) = try await harness.request(
                .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: try await harness.guestToken())
            #expect(guest == .forbidden && guestBody["error"]["code"].string == "guests_not_allowed")
            let (anonymous, _) = try await harness.request(.post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]])
            #expect(anonymous == .unauthorized)

            // The three answers are keyed by user, so they may be applied in any order: wait for all of them.
            #expect(
                try await eventually {
                    let first = try await harness.stats("/v1/poll/results")["questions"][0]
                    return first["yes"].int == 2 && first["no"].int == 1
                })
            let results = try await harness.stats("/v1/poll/results")["questions"]
            #expect(results[0]["no"].int == 1)
            #expect(results[0]["yesPercent"].double == 66.7 && results[0]["noPercent"].double == 33.3)
            #expect(results[1]["yes"].int == 0 && results[1]["yesPercent"].double == 0)
        }
    }

    @Test("N4: the seed's survey: points, asking why under 75 and at 3 stars or fewer, stars from points, a unique coupon, once each")
    func survey() async throws {
        try await AnalyticsTestHarness.run { harness in
            let guest = UUID()
            let token = try await harness.userToken(guest.uuidString)
            // Not (yet) one of auth's survey accounts.
            let (refused, refusedBody) = try await harness.request(.get, "/v1/survey", bearer: token)
            #expect(refused == .forbidden && refusedBody["error"]["code"].string == "not_a_survey_account")
            try await harness.registerSurveyAccount(guest)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: token).0 == .ok })

            let (_, survey) = try await harness.request(.get, "/v1/survey", bearer: token)
            #expect(survey["services"].array.map { $0["name"].string ?? "" } == ["Rooms", "Dining", "Spa/Pool", "Gym"])
            #expect(survey["services"].array.allSatisfy { $0["questions"].count == 5 && $0["submitted"].bool == false })
            #expect(survey["ratings"]["excellent"].int == 20 && survey["ratings"]["good"].int == 10)
            #expect(survey["ratings"]["fair"].int == 5 && survey["ratings"]["poor"].int == 0)

            let (early, earlyBody) = try await harness.request(.post, "/v1/survey/overall", json: [:] as [String: Int], bearer: token)
            #expect(early == .unprocessableContent && earlyBody["error"]["code"].string == "no_service_rated")

            func rate(_ service: String, _ answers: [String]) async throws -> (Int, JSONValue) {
                let (status, body) = try await harness.request(.post, "/v1/survey/services/\(service)", json: ["answers": answers], bearer: token)
                return (status.code, body)
            }
            let (roomsStatus, rooms) = try await rate("rooms", Array(repeating: "excellent", count: 5))
            #expect(roomsStatus == 201 && rooms["points"].int == 100 && rooms["askWhy"].bool == false)
            // 20 + 20 + 20 + 10 + 5 = 75: good, no question.
            let (_, dining) = try await rate("dining", ["excellent", "excellent", "excellent", "good", "fair"])
            #expect(dining["points"].int == 75 && dining["askWhy"].bool == false)
            // 20 + 20 + 10 + 10 + 10 = 70: below good, asks why.
            let (_, spa) = try await rate("spa-pool", ["excellent", "excellent", "good", "good", "good"])
            #expect(spa["points"].int == 70 && spa["askWhy"].bool == true && spa["message"].string?.contains("below good") == true)
            let (againStatus, again) = try await rate("rooms", Array(repeating: "poor", count: 5))
            #expect(againStatus == 409 && again["error"]["code"].string == "already_submitted")
            let (fourAnswers, _) = try await rate("gym", ["good", "good", "good", "good"])
            #expect(fourAnswers == 400)

            let why = ["why": "The pool was cold."]
            #expect(try await harness.request(.post, "/v1/survey/services/spa-pool/why", json: why, bearer: token).0 == .noContent)
            #expect(try await harness.request(.post, "/v1/survey/services/spa-pool/why", json: why, bearer: token).0 == .conflict)
            #expect(try await harness.request(.post, "/v1/survey/services/rooms/why", json: why, bearer: token).0 == .unprocessableContent)
            #expect(try await harness.request(.post, "/v1/survey/services/gym/why", json: why, bearer: token).0 == .notFound)

            // 100 + 75 + 70 = 245 points: two stars from the points, which asks why; a coupon either way.
            let (overallStatus, overall) = try await harness.request(.post, "/v1/survey/overall", json: [:] as [String: Int], bearer: token)
            #expect(overallStatus == .created)
            #expect(overall["stars"].int == 2 && overall["points"].int == 245 && overall["askWhy"].bool == true)
            #expect(overall["couponStatus"].string == "issued")
            let coupon = overall["couponCode"].string ?? ""
            #expect(coupon.range(of: #"^HOTEL50-[2-9A-HJKMNP-Z]{12}$"#, options: .regularExpression) != nil, "\(coupon)")
            #expect(overall["message"].string?.contains("$50") == true)
            #expect(try await harness.request(.post, "/v1/survey/overall", json: ["stars": 5], bearer: token).0 == .conflict)
            #expect(try await harness.request(.post, "/v1/survey/overall/why", json: why, bearer: token).0 == .noContent)
            // The overall rating closed the survey: a service not rated yet is refused now.
            let (closed, closedBody) = try await rate("gym", Array(repeating: "good", count: 5))
            #expect(closed == 409 && closedBody["error"]["code"].string == "survey_closed")

            // Another guest gives their own five stars: no question, another coupon.
            let other = UUID()
            let otherToken = try await harness.userToken(other.uuidString)
            try await harness.registerSurveyAccount(other)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: otherToken).0 == .ok })
            #expect(
                try await harness.request(.post, "/v1/survey/services/gym", json: ["answers": Array(repeating: "poor", count: 5)], bearer: otherToken)
                    .0 == .created)
            // Stars outside 1-5 are refused before anything is stored (the guest can still rate afterwards).
            for stars in [0, 6] {
                let (badStars, badBody) = try await harness.request(.post, "/v1/survey/overall", json: ["stars": stars], bearer: otherToken)
                #expect(badStars == .badRequest && badBody["error"]["details"]["stars"].string != nil, "\(stars): \(badStars)")
            }
            let (_, five) = try await harness.request(.post, "/v1/survey/overall", json: ["stars": 5], bearer: otherToken)
            #expect(five["stars"].int == 5 && five["askWhy"].bool == false)
            let otherCoupon = try #require(five["couponCode"].string)
            #expect(otherCoupon != coupon && otherCoupon.hasPrefix("HOTEL50-"))
            #expect(try await harness.request(.post, "/v1/survey/overall/why", json: why, bearer: otherToken).0 == .unprocessableContent)

            // A third guest's own three stars ask why, whatever the points (rooms rated excellent: 100 points).
            let third = UUID()
            let thirdToken = try await harness.userToken(third.uuidString)
            try await harness.registerSurveyAccount(third)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: thirdToken).0 == .ok })
            #expect(
                try await harness.request(
                    .post, "/v1/survey/services/rooms", json: ["answers": Array(repeating: "excellent", count: 5)], bearer: thirdToken
                ).0 == .created)
            let (_, three) = try await harness.request(.post, "/v1/survey/overall", json: ["stars": 3], bearer: thirdToken)
            #expect(three["stars"].int == 3 && three["askWhy"].bool == true)
            #expect(
                try await harness.request(.post, "/v1/survey/overall/why", json: ["why": "Noisy corridor at night."], bearer: thirdToken).0
                    == .noContent)

            // A fourth guest's 0 points suggest no star at all (one star per full 100 points), which asks why.
            let fourth = UUID()
            let fourthToken = try await harness.userToken(fourth.uuidString)
            try await harness.registerSurveyAccount(fourth)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: fourthToken).0 == .ok })
            #expect(
                try await harness.request(
                    .post, "/v1/survey/services/gym", json: ["answers": Array(repeating: "poor", count: 5)], bearer: fourthToken
                ).0 == .created)
            let (_, suggested) = try await harness.request(.get, "/v1/survey", bearer: fourthToken)
            #expect(suggested["overall"]["suggestedStars"].int == 0, "\(suggested.raw ?? "")")
            let (_, none) = try await harness.request(.post, "/v1/survey/overall", json: [:] as [String: Int], bearer: fourthToken)
            #expect(none["stars"].int == 0 && none["points"].int == 0 && none["askWhy"].bool == true, "\(none.raw ?? "")")

            // The results, from the aggregates.
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey")["overall"]["submissions"].int == 4 })
            let stats = try await harness.stats("/v1/admin/stats/survey")
            let services = Dictionary(uniqueKeysWithValues: stats["services"].array.map { ($0["service"].string ?? "", $0) })
            #expect(services["rooms"]?["averagePoints"].double == 100 && services["spa-pool"]?["belowGood"].int == 1)
            #expect(services["gym"]?["averagePoints"].double == 0 && services["gym"]?["belowGood"].int == 2)
            #expect(stats["overall"]["stars"].array.map { $0["key"].string ?? "" } == ["0", "1", "2", "3", "4", "5"])
            #expect(stats["overall"]["stars"].array.map { $0["count"].int ?? -1 } == [1, 0, 1, 1, 0, 1])
            #expect(stats["overall"]["coupons"].int == 4)

            // The reasons, for admins: newest first, by service or the stay's ratings, a page at a time (N4).
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey/reasons")["items"].count == 3 })
            let reasons = try await harness.stats("/v1/admin/stats/survey/reasons")
            #expect(
                reasons["items"].array.compactMap { $0["why"].string } == ["Noisy corridor at night.", "The pool was cold.", "The pool was cold."])
            #expect(
                reasons["items"][0]["part"].string == "overall" && reasons["items"][0]["stars"].int == 3 && reasons["items"][0]["service"].raw == nil)
            #expect(reasons["items"][2]["part"].string == "service" && reasons["items"][2]["service"].string == "spa-pool")
            #expect(reasons["items"][2]["points"].int == 70 && reasons["items"][2]["explainedAt"].string != nil)
            #expect(reasons["items"].array.allSatisfy { $0["userId"].raw == nil }, "no one's id")
            let spaReasons = try await harness.stats("/v1/admin/stats/survey/reasons?service=spa-pool")
            #expect(spaReasons["items"].count == 1 && spaReasons["items"][0]["points"].int == 70)
            let stays = try await harness.stats("/v1/admin/stats/survey/reasons?service=overall")
            #expect(stays["items"].array.compactMap { $0["stars"].int } == [3, 2])
            #expect(try await harness.stats("/v1/admin/stats/survey/reasons?service=gym")["items"].count == 0)
            let first = try await harness.stats("/v1/admin/stats/survey/reasons?pageSize=2")
            #expect(first["items"].count == 2 && first["total"].int == 3 && first["page"].int == 1)
            let second = try await harness.stats("/v1/admin/stats/survey/reasons?pageSize=2&page=2")
            #expect(second["items"].array.compactMap { $0["why"].string } == ["The pool was cold."] && second["total"].int == 3)
            let (badService, _) = try await harness.request(
                .get, "/v1/admin/stats/survey/reasons?service=sauna", bearer: try await harness.adminToken())
            #expect(badService == .badRequest)
        }
    }

    @Test("N4: reasons kept before they were published as events are published once, and then listed for admins")
    func reasonBackfill() async throws {
        try await AnalyticsTestHarness.run { harness in
            let guest = UUID()
            let token = try await harness.userToken(guest.uuidString)
            try await harness.registerSurveyAccount(guest)
            #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: token).0 == .ok })
            let answers = ["good", "good", "good", "fair", "poor"]
            #expect(try await harness.request(.post, "/v1/survey/services/dining", json: ["answers": answers], bearer: token).0 == .created)
            // As a row kept before reasons were published looks after migration 0006.
            #expect(try await harness.count("UPDATE survey_services SET why = 'Cold soup.' WHERE service = 'dining' RETURNING 1") == 1)
            let backfill = SurveyReasonBackfill(
                client: harness.db.client, topic: try #require(harness.environment.string("ANALYTICS_TELEMETRY_TOPIC")),
                startGate: StartGate(), interval: .seconds(3_600), logger: Logger(label: "backfill-test"))
            #expect(try await backfill.publishUnpublished() == 1)
            #expect(try await backfill.publishUnpublished() == 0, "published once")
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey/reasons")["total"].int == 1 })
            let listed = try await harness.stats("/v1/admin/stats/survey/reasons")["items"][0]
            #expect(listed["why"].string == "Cold soup." && listed["service"].string == "dining" && listed["points"].int == 35)
            // A reason given through the API is published with it, not again by the backfill.
            #expect(try await harness.request(.post, "/v1/survey/services/gym", json: ["answers": answers], bearer: token).0 == .created)
            #expect(try await harness.request(.post, "/v1/survey/services/gym/why", json: ["why": "Crowded."], bearer: token).0 == .noContent)
            #expect(try await backfill.publishUnpublished() == 0)
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey/reasons")["total"].int == 2 })
            // U9: the kept topic's reasons are keyed apart from the guest, so they outlive an erasure unlinked.
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'survey.explained'") == 2)
            let linked = "SELECT count(*)::int FROM outbox WHERE event_type = 'survey.explained' AND lower(key) = '\(guest.uuidString.lowercased())'"
            #expect(try await harness.count(linked) == 0, "no reason keyed by the guest")
        }
    }

    @Test("N5: the dashboard's numbers and stream are for admins only")
    func adminOnly() async throws {
        try await AnalyticsTestHarness.run { harness in
            let adminPaths = [
                "/v1/admin/stats/home", "/v1/admin/stats/features", "/v1/admin/stats/downloads", "/v1/admin/stats/locations",
                "/v1/admin/stats/survey", "/v1/admin/stats/survey/reasons", "/v1/admin/stream",
            ]
            for path in adminPaths {
                #expect(try await harness.request(.get, path).0 == .unauthorized, "\(path)")
                #expect(try await harness.request(.get, path, bearer: try await harness.userToken()).0 == .forbidden, "\(path)")
            }
            let (page, _) = try await harness.send(.get, "/dashboard/")
            #expect(page == .ok)
            let (config, body) = try await harness.send(.get, "/dashboard/config.json")
            #expect(config == .ok && body["authBaseUrl"].string != nil)
        }
    }

    @Test("X3, N4: the coupon waits for a verified address and goes to one account per mailbox in the window")
    func couponAfterVerifiedEmail() async throws {
        try await AnalyticsTestHarness.run { harness in
            func takeSurvey(_ user: UUID) async throws -> JSONValue {
                let token = try await harness.userToken(user.uuidString)
                #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: token).0 == .ok })
                let (rated, _) = try await harness.request(
                    .post, "/v1/survey/services/rooms", json: ["answers": Array(repeating: "good", count: 5)], bearer: token)
                #expect(rated == .created)
                let (status, overall) = try await harness.request(.post, "/v1/survey/overall", json: ["stars": 4], bearer: token)
                #expect(status == .created)
                return overall
            }
            @Sendable func survey(_ user: UUID) async throws -> JSONValue {
                try await harness.request(.get, "/v1/survey", bearer: try await harness.userToken(user.uuidString)).1["overall"]
            }
            // Not verified: the rating is kept, the coupon waits.
            let first = UUID()
            try await harness.registerSurveyAccount(first, verifiedMailbox: nil)
            let waiting = try await takeSurvey(first)
            #expect(waiting["couponStatus"].string == "awaiting_verification" && waiting["couponCode"].raw == nil)
            #expect(waiting["message"].string?.contains("Confirm your email address") == true)
            #expect(try await survey(first)["couponStatus"].string == "awaiting_verification")
            // auth says the address is verified: the waiting coupon is issued.
            try await harness.verifySurveyAccount(first, mailbox: "mailbox-a")
            #expect(try await eventually { try await survey(first)["couponStatus"].string == "issued" })
            let coupon = try await survey(first)["couponCode"].string ?? ""
            #expect(coupon.hasPrefix("HOTEL50-"), "\(coupon)")

            // A second account of the same mailbox (an alias): no second coupon in the window.
            let alias = UUID()
            try await harness.registerSurveyAccount(alias, verifiedMailbox: "mailbox-a")
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM survey_accounts WHERE verified_at IS NOT NULL") == 2 })
            let refused = try await takeSurvey(alias)
            #expect(refused["couponStatus"].string == "mailbox_already_rewarded" && refused["couponCode"].raw == nil)
            // Another mailbox earns its own.
            let other = UUID()
            try await harness.registerSurveyAccount(other, verifiedMailbox: "mailbox-b")
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM survey_accounts WHERE verified_at IS NOT NULL") == 3 })
            let issued = try await takeSurvey(other)
            #expect(issued["couponStatus"].string == "issued" && issued["couponCode"].string != coupon)
            // The verification applied again changes nothing (the event is idempotent).
            try await harness.verifySurveyAccount(first, mailbox: "mailbox-a")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await survey(first)["couponCode"].string == coupon)
            #expect(try await harness.count("SELECT count(*)::int FROM survey_coupon_mailboxes") == 2)
            // The stats count the coupons issued (two), not the three ratings.
            #expect(try await eventually { try await harness.stats("/v1/admin/stats/survey")["overall"]["submissions"].int == 3 })
            #expect(try await harness.stats("/v1/admin/stats/survey")["overall"]["coupons"].int == 2)
        }
    }
}
