/// The hotel survey's rules, exactly as the seed states them (N4): four services, five questions each,
/// Excellent 20 / Good 10 / Fair 5 / Poor 0 points, 100 per service and 400 overall; a service under 75
/// points asks why; the overall rating is one star per 100 points unless the guest gives their own, and
/// three stars or fewer asks why; every overall rating earns a $50 coupon.
package enum HotelSurvey {
    package struct Service: Sendable {
        package let id: String
        package let name: String
        package let questions: [String]

        package init(id: String, name: String, questions: [String]) {
            self.id = id
            self.name = name
            self.questions = questions
        }
    }

    // The seed leaves the five questions blank ("Q1: ... Q5:"); these are the hotel's own wording.
    package static let services = [
        Service(
            id: "rooms", name: "Rooms",
            questions: [
                "How clean was your room?", "How comfortable was the bed?", "How quiet was your room?",
                "How well equipped was the bathroom?", "How was the view and the light?",
            ]),
        Service(
            id: "dining", name: "Dining",
            questions: [
                "How good was the food?", "How wide was the choice?", "How friendly was the staff?",
                "How quick was the service?", "How good value were the prices?",
            ]),
        Service(
            id: "spa-pool", name: "Spa/Pool",
            questions: [
                "How clean were the spa and pool?", "How good were the treatments?", "How convenient were the opening hours?",
                "How friendly was the staff?", "How relaxing was it?",
            ]),
        Service(
            id: "gym", name: "Gym",
            questions: [
                "How well equipped was the gym?", "How clean was it?", "How convenient were the opening hours?",
                "How crowded was it?", "How helpful was the staff?",
            ]),
    ]

    package static let goodThreshold = 75
    package static let pointsPerStar = 100
    package static let couponValue = "$50"

    package static let belowGoodMessage = "You rated the hotel below good. Please tell us why."
    package static let thanksMessage = "Thank you for your feedback! Here is a coupon for \(couponValue) off your next trip booked on Hotels.com."
    package static let thanksVerifyMessage =
        "Thank you for your feedback! Confirm your email address with the code we sent you to receive a coupon for \(couponValue) off your next trip booked on Hotels.com."
    package static let thanksNoCouponMessage = "Thank you for your feedback! A coupon was already given to this email address."

    package static func thanks(_ status: CouponStatus) -> String {
        switch status {
        case .issued: thanksMessage
        case .awaitingVerification: thanksVerifyMessage
        case .mailboxAlreadyRewarded: thanksNoCouponMessage
        }
    }

    package static func service(_ id: String) -> Service? { services.first { $0.id == id } }

    /// A service's points from its five ratings; nil when a rating is unknown or there are not five.
    package static func score(_ ratings: [String]) -> Int? {
        guard ratings.count == 5 else { return nil }
        var total = 0
        for rating in ratings {
            guard let rating = SurveyRating(rawValue: rating) else { return nil }
            total += rating.points
        }
        return total
    }

    package static func isBelowGood(points: Int) -> Bool { points < goodThreshold }

    /// One star per full 100 points of the rated services, as the seed says ("each star for every 100 pts"):
    /// 0 to 99 points is no star.
    package static func suggestedStars(totalPoints: Int) -> Int { max(0, min(5, totalPoints / pointsPerStar)) }

    package static func asksWhy(stars: Int) -> Bool { stars <= 3 }
}
