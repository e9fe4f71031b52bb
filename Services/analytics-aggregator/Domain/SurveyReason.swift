import Foundation

/// Why a guest rated a hotel service under good or the stay three stars or fewer (N4), as the admins read it:
/// what was rated, how, the words and when, never who.
package struct SurveyReason: Equatable, Sendable {
    /// `service` or `overall`.
    package var part: String
    package var service: String?
    package var points: Int
    package var stars: Int?
    package var why: String
    package var at: Date

    package init(part: String, service: String? = nil, points: Int, stars: Int? = nil, why: String, at: Date) {
        self.part = part
        self.service = service
        self.points = points
        self.stars = stars
        self.why = why
        self.at = at
    }
}
