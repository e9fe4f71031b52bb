import Foundation

/// Why a guest rated a hotel service under good or the stay three stars or fewer (N4), as the admins read it:
/// what was rated, how, the words and when, never who.
struct SurveyReason: Equatable, Sendable {
    /// `service` or `overall`.
    var part: String
    var service: String?
    var points: Int
    var stars: Int?
    var why: String
    var at: Date
}
