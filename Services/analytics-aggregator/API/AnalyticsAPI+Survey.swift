import Foundation
import PlatformCore
import PlatformHTTP

/// The hotel survey (N4), for auth's survey accounts (known from its `user.registered` events).
extension AnalyticsAPI {
    var survey: TakeSurvey { TakeSurvey(surveys: surveys) }

    /// The caller, who must be one of auth's survey accounts.
    func surveyTaker() async throws -> String {
        let user = try RequestScope.requireMember()
        return try await survey.taker(Self.accountKey(user))
    }

    func getSurvey(_ input: Operations.GetSurvey.Input) async throws -> Operations.GetSurvey.Output {
        let user = try await surveyTaker()
        let status = try await surveys.status(of: user)
        let points = status.services.values.reduce(0, +)
        let services: [Components.Schemas.Survey.ServicesPayloadPayload] = HotelSurvey.services.compactMap { service in
            guard let id = Components.Schemas.HotelService(rawValue: service.id) else { return nil }
            return .init(
                id: id, name: service.name, questions: service.questions, submitted: status.services[service.id] != nil,
                points: status.services[service.id])
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        services: services,
                        ratings: .init(
                            excellent: SurveyRating.excellent.points, good: SurveyRating.good.points, fair: SurveyRating.fair.points,
                            poor: SurveyRating.poor.points),
                        overall: .init(
                            submitted: status.overall != nil, stars: status.overall?.stars, couponCode: status.overall?.coupon,
                            couponStatus: status.overall.map { .init($0.couponStatus) },
                            suggestedStars: status.services.isEmpty ? nil : HotelSurvey.suggestedStars(totalPoints: points))))))
    }

    func submitService(_ input: Operations.SubmitService.Input) async throws -> Operations.SubmitService.Output {
        let user = try await surveyTaker()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let (points, below) = try await survey.submitService(user: user, service: input.path.service.rawValue, ratings: body.answers.map(\.rawValue))
        return .created(
            .init(body: .json(.init(service: input.path.service, points: points, askWhy: below, message: below ? HotelSurvey.belowGoodMessage : nil)))
        )
    }

    func explainService(_ input: Operations.ExplainService.Input) async throws -> Operations.ExplainService.Output {
        let user = try await surveyTaker()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        try Self.checkLength(why: body.why)
        try await survey.explainService(user: user, service: input.path.service.rawValue, why: body.why)
        return .noContent(.init())
    }

    func submitOverall(_ input: Operations.SubmitOverall.Input) async throws -> Operations.SubmitOverall.Output {
        let user = try await surveyTaker()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        if let stars = body.stars, !(1...5).contains(stars) { throw JSONBody.schemaViolation(["stars": "must be 1 to 5"]) }
        let result = try await survey.submitOverall(user: user, stars: body.stars)
        let asks = HotelSurvey.asksWhy(stars: result.stars)
        return .created(
            .init(
                body: .json(
                    .init(
                        stars: result.stars, points: result.points, askWhy: asks, couponCode: result.coupon,
                        couponStatus: .init(result.couponStatus),
                        message: asks
                            ? "\(HotelSurvey.belowGoodMessage) \(HotelSurvey.thanks(result.couponStatus))" : HotelSurvey.thanks(result.couponStatus)))
            ))
    }

    func explainOverall(_ input: Operations.ExplainOverall.Input) async throws -> Operations.ExplainOverall.Output {
        let user = try await surveyTaker()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        try Self.checkLength(why: body.why)
        try await survey.explainOverall(user: user, why: body.why)
        return .noContent(.init())
    }

    /// Over 2,000 code points is 400 (the document's limit); a blank reason is the survey's refusal (422).
    static func checkLength(why text: String) throws {
        guard RequestText.length(text) <= 2000 else { throw JSONBody.schemaViolation(["why": "must be at most 2000 characters"]) }
    }
}

extension Components.Schemas.CouponStatus {
    init(_ status: CouponStatus) {
        switch status {
        case .issued: self = .issued
        case .awaitingVerification: self = .awaitingVerification
        case .mailboxAlreadyRewarded: self = .mailboxAlreadyRewarded
        }
    }
}
