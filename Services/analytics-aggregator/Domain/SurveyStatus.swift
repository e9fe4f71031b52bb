import Foundation

/// What a guest has submitted: each rated service's points and the overall rating.
package struct SurveyStatus: Sendable {
    package var services: [String: Int] = [:]
    package var overall: SurveyOverall?

    package init(services: [String: Int] = [:], overall: SurveyOverall? = nil) {
        self.services = services
        self.overall = overall
    }
}

/// The overall rating as given, with its coupon when one was issued.
package struct SurveyOverall: Sendable, Equatable {
    package var stars: Int
    package var points: Int
    package var coupon: String?
    package var couponStatus: CouponStatus

    package init(stars: Int, points: Int, coupon: String? = nil, couponStatus: CouponStatus) {
        self.stars = stars
        self.points = points
        self.coupon = coupon
        self.couponStatus = couponStatus
    }
}

/// What became of a reason given for a rating.
package enum SurveyExplainOutcome: Sendable, Equatable {
    case stored, notSubmitted, notBelowGood, alreadyExplained
}
